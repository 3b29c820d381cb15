import { queryOptions } from '@tanstack/react-query';
import type { ReportDtos, ReportName, ReportTable } from '@/lib/server/analytics/dto';
import type { IntervalDto, PositionConsistencyDto, Reason, StatDto } from '@/lib/server/analytics/dto';
import { getJson } from './review';

/*
 * The analytics reports as the browser reads them: `/api/studies/:id/reports/:report`, whose JSON is the
 * flattened form the CLI prints with `--json` (docs/cli.md): a statistic is a number or `null` with its reason in a
 * sibling `<name>Reason`; a record of statistics has its reasons in `<name>Reasons`. `Flat<Dto>` is that shape.
 */

type IsStat<V> = [V] extends [StatDto] ? true : false;
type IsStatRecord<V> = [V] extends [StatDto] ? false : [V] extends [Record<string, StatDto>] ? true : false;

type FlatObject<T> = {
  [K in keyof T]: IsStat<T[K]> extends true ? number | null : IsStatRecord<T[K]> extends true ? Record<string, number | null> : Flat<T[K]>;
} & { [K in keyof T as IsStat<T[K]> extends true ? `${K & string}Reason` : never]?: Reason } & {
  [K in keyof T as IsStatRecord<T[K]> extends true ? `${K & string}Reasons` : never]?: Record<string, Reason>;
};

export type Flat<T> = T extends IntervalDto ? T : T extends readonly (infer U)[] ? Flat<U>[] : T extends object ? FlatObject<T> : T;

type PositionConsistencyJson = Flat<Extract<PositionConsistencyDto, { n: number }>>;

/** The JSON of each report. Position consistency is an object, or `null` with `positionConsistencyReason`. */
export type ReportJson = {
  agreement: Flat<ReportDtos['agreement']>;
  alignment: Omit<Flat<ReportDtos['alignment']>, 'positionConsistency'> & {
    positionConsistency: PositionConsistencyJson | null;
    positionConsistencyReason?: Reason;
  };
  leaderboard: Flat<ReportDtos['leaderboard']>;
  hybrid: Flat<ReportDtos['hybrid']>;
  certify: Flat<ReportDtos['certify']>;
  bias: Flat<ReportDtos['bias']>;
  'rubric-agreement': Flat<ReportDtos['rubric-agreement']>;
  'rubric-alignment': Flat<ReportDtos['rubric-alignment']>;
  'rubric-leaderboard': Flat<ReportDtos['rubric-leaderboard']>;
  'rubric-hybrid': Flat<ReportDtos['rubric-hybrid']>;
  'rubric-certify': Flat<ReportDtos['rubric-certify']>;
  'rubric-bias': Flat<ReportDtos['rubric-bias']>;
  gold: ReportDtos['gold'];

  annotators: Flat<ReportDtos['annotators']>;
};

export type TiePolicyName = ReportDtos['leaderboard']['tiePolicy'];

/** Options of each report, as the route's query parameters. */
export type ReportParams = {
  agreement: { bootstrap?: number };
  alignment: { judge: string; bootstrap?: number };
  leaderboard: { tiePolicy?: TiePolicyName; bootstrap?: number };
  hybrid: { judge: string; criterion?: string; target?: number; epsilon?: number; delta?: number };
  certify: { judge: string; criterion?: string; target?: number; epsilon?: number };
  bias: Record<string, never>;
  'rubric-agreement': { bootstrap?: number };
  'rubric-alignment': { judge: string; sample?: number; bootstrap?: number };
  'rubric-leaderboard': { sample?: number };
  'rubric-hybrid': {
    judge: string;
    criterion?: string;
    target?: number;
    epsilon?: number;
    delta?: number;
    lenient?: 'true' | 'false';
    sample?: number;
  };
  'rubric-certify': { judge: string; criterion?: string; target?: number; epsilon?: number; lenient?: 'true' | 'false'; sample?: number };
  'rubric-bias': { sample?: number; lenient?: 'true' | 'false' };
  gold: Record<string, never>;

  annotators: Record<string, never>;
};

function search(params: Record<string, string | number | undefined>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q;
}

/** The report's JSON (`format=json`) or one of its tables as CSV. */
export function reportUrl<R extends ReportName>(
  studyId: number,
  report: R,
  params: ReportParams[R],
  out: { format: 'json' } | { format: 'csv'; table: ReportTable<R> } = { format: 'json' },
): string {
  const q = search({ format: out.format, ...(out.format === 'csv' ? { table: out.table } : {}), ...params });
  return `/api/studies/${studyId}/reports/${report}?${q}`;
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/** The name a download is saved under, e.g. `study-5-alignment-gpt-3.5-turbo-criteria.csv`. */
export function reportFilename(
  studyId: number,
  report: ReportName,
  opts: { judge?: string; criterion?: string; tiePolicy?: string; table?: string; format: 'json' | 'csv' },
): string {
  const parts = [`study-${studyId}`, report, opts.judge, opts.criterion, opts.tiePolicy && `ties-${opts.tiePolicy}`, opts.table];
  return `${parts
    .filter((p): p is string => !!p)
    .map(fileSafe)
    .join('-')}.${opts.format}`;
}

export const reportKey = <R extends ReportName>(studyId: number, report: R, params: ReportParams[R]) =>
  ['reports', studyId, report, params] as const;

export const reportOptions = <R extends ReportName>(studyId: number, report: R, params: ReportParams[R]) =>
  queryOptions({
    queryKey: reportKey(studyId, report, params),
    queryFn: () => getJson<ReportJson[R]>(reportUrl(studyId, report, params)),
    // A report changes only when labels arrive; a lead comparing options flips back and forth.
    staleTime: 5 * 60_000,
  });
