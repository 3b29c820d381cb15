import type { ReactNode } from 'react';
import type { ReportJson, ReportParams } from '@/lib/query/analytics';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { policyText } from './format';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES } from './use-report';
import { PairwiseCards, TiePolicyControl, labelCount } from './leaderboard-win-rates';
import { RubricCards, ScoringControl } from './leaderboard-desired-shares';

/*
 * What the leaderboard dashboard draws differently for each leaderboard report, keyed by the report's name: the
 * options it is computed with and their controls, the words of its download names, and its cards (a pairwise
 * study's leaderboard per model and grader with its criteria, corrected and rank tables; a rubric study's share of
 * desired labels per tutor). The dashboard (leaderboard-dashboard.tsx) draws the rest.
 */

export type LeaderboardReportName = 'leaderboard' | 'rubric-leaderboard';

export type CriterionInfo = { id: string; name: string; level?: 'general' | 'principle' | 'overall' };

/** What a part's cards and controls are given: the report shown, the options asked for, and the dashboard's view. */
export type Shown<R extends LeaderboardReportName> = {
  data: ReportJson[R];
  params: ReportParams[R];
  set: (params: ReportParams[R]) => void;
  /** Strict or lenient scoring, for a report whose labels can be folded (only the rubric's offer it). */
  lenient: boolean;
  setLenient: (lenient: boolean) => void;
};

export type Own<R extends LeaderboardReportName> = Shown<R> & {
  studyId: number;
  /** The study's criteria, for a report that names what it keys by id. */
  criteria: CriterionInfo[];
  csv: (table: ReportTable<R>) => ReactNode;
  fetching: boolean;
  error: string | null;
  retry: () => void;
};

export type LeaderboardPart<R extends LeaderboardReportName> = {
  /** The options the report was computed with, as the route's query parameters. */
  params: (data: ReportJson[R]) => ReportParams[R];
  /** The options to ask for first: the server rendered the report without a bootstrap, which may start by itself. */
  start: (initial: ReportJson[R]) => ReportParams[R];
  /** The options kept in the page's address (defaults left out). */
  inUrl: (params: ReportParams[R]) => Record<string, string | number | undefined>;
  /** The options that name a downloaded file. */
  file: (data: ReportJson[R]) => { tiePolicy?: string };
  Controls: (p: Shown<R>) => ReactNode;
  /** What the header says while other options are loading, if anything. */
  status: (p: { data: ReportJson[R]; params: ReportParams[R]; fetching: boolean }) => ReactNode;
  Own: (p: Own<R>) => ReactNode;
};

/* ----- pairwise: the leaderboard per model and grader ----- */

export const LEADERBOARD_PARTS: { [R in LeaderboardReportName]: LeaderboardPart<R> } = {
  leaderboard: {
    params: (data) => ({ tiePolicy: data.tiePolicy, bootstrap: data.bootstrap.replicates }),
    start: (initial) => {
      const labels = labelCount(initial);
      return {
        tiePolicy: initial.tiePolicy,
        bootstrap: labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0,
      };
    },
    inUrl: (params) => ({ tiePolicy: params.tiePolicy === 'half' ? undefined : params.tiePolicy }),
    file: (data) => ({ tiePolicy: data.tiePolicy }),
    Controls: TiePolicyControl,
    status: ({ data, params, fetching }) =>
      data.tiePolicy !== params.tiePolicy && fetching ? (
        <p role="status" className="text-sm text-slate-600">
          Recomputing with {policyText(params.tiePolicy ?? 'half')}…
        </p>
      ) : null,
    Own: PairwiseCards,
  },
  'rubric-leaderboard': {
    params: (data) => ({ sample: data.sample }),
    start: (initial) => ({ sample: initial.sample }),
    inUrl: () => ({}),
    file: () => ({}),
    Controls: ScoringControl,
    status: () => null,
    Own: RubricCards,
  },
};
