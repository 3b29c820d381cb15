/**
 * A report's tables as data: every column says its header on the dashboard, its name in the CSV, the kind of value
 * it holds and how a row gives it. The dashboards (StatTable), the CSV writer (lib/io/report-csv) and the CLI's text
 * read the same specs, so a statistic added to a table shows up in all three and the kinds cannot drift apart.
 *
 * Pure data and functions, no server code: the browser imports it through `@/lib/server/analytics/dto`.
 */
import type { IntervalDto, Reason, StatDto } from './common';

/** How a value is written: κ-like coefficients with three decimals, percentages, counts, p-values, text. */
export type ValueKind = 'ratio' | 'percent' | 'count' | 'interval' | 'p-value' | 'text';

/**
 * A statistic of the row, read by its key: the DTO holds `row[key]` as a StatDto and `row.intervals[key]`; the
 * report JSON the dashboards read holds `row[key]` as a number or null and the reason in `row[key + 'Reason']`.
 * `interval: false` for a value reported without a 95 % interval (its CSV has no `_lower`/`_upper`).
 */
export type StatColumnSpec = {
  id: string;
  header: string;
  csv: string;
  value: 'ratio' | 'percent' | 'p-value';
  key: string;
  interval?: boolean;
  /** The four CSV names when they are not `<csv>`, `<csv>_lower`, `<csv>_upper`, `<csv>_reason` (a table of means). */
  csvParts?: readonly [string, string, string, string];
  /** The test id of the value on the dashboard. */
  testId?: string;
  /** Left out of the dashboard and the CLI's text (a CSV-only column). */
  csvOnly?: boolean;
};

/** A plain cell (a name, a count): the same in the DTO and in the JSON, so one getter reads both. */
export type PlainColumnSpec<R> = {
  id: string;
  header: string;
  csv: string;
  value: 'count' | 'text';
  get: (row: R) => string | number | boolean | null;
  /** How the dashboard writes the cell when not as the CSV does (e.g. `yes` for `true`). */
  display?: (row: R) => string | null;
  /** A second line under the cell on the dashboard (e.g. a criterion's level); never in the CSV. */
  note?: (row: R) => string | null;
  /** Left out of the dashboard (a CSV-only column, e.g. the judge's name repeated on every row). */
  csvOnly?: boolean;
  /** Left out of the CSV (a dashboard-only column). */
  screenOnly?: boolean;
};

export type ColumnSpec<R> = StatColumnSpec | PlainColumnSpec<R>;

export const isStatColumn = <R>(c: ColumnSpec<R>): c is StatColumnSpec => 'key' in c;

/** One table of a report: its rows drawn from the report, and its columns. */
export type TableSpec<D, R> = {
  id: string;
  title: string;
  rows: (report: D) => R[];
  columns: readonly ColumnSpec<R>[];
  rowKey: (row: R) => string;
};

/**
 * A table as the CSV writer and the CLI's text read it: its columns a list, or drawn from the report where the
 * report decides them (the pairwise leaderboard has a column per principle of the study's catalog).
 */
export type AnyTableSpec<D, R> = Omit<TableSpec<D, R>, 'columns'> & {
  columns: readonly ColumnSpec<R>[] | ((report: D) => readonly ColumnSpec<R>[]);
};

/** The columns of a table for one report. */
export const columnsOf = <D, R>(spec: AnyTableSpec<D, R>, report: D): readonly ColumnSpec<R>[] =>
  typeof spec.columns === 'function' ? spec.columns(report) : spec.columns;

/** A statistic read from either form of a row (see StatColumnSpec). */
export type StatCell = { value: number | null; reason?: Reason; interval?: IntervalDto };

export function readStat(row: unknown, key: string): StatCell {
  const r = row as Record<string, unknown> & { intervals?: Record<string, IntervalDto | undefined> };
  const v = r[key] as StatDto | number | null | undefined;
  const interval = r.intervals?.[key];
  if (v !== null && typeof v === 'object') return { value: v.value, reason: v.reason, interval };
  return { value: v ?? null, reason: r[`${key}Reason`] as Reason | undefined, interval };
}

/** A statistic column of `key`, with its interval unless said otherwise. */
export const stat = <K extends string>(
  key: K,
  csv: string,
  header: string,
  value: StatColumnSpec['value'],
  opts: { interval?: boolean } = {},
): StatColumnSpec & { id: K; key: K } => ({ id: key, key, csv, header, value, interval: opts.interval ?? true });

/** The CSV names of a column: a statistic with an interval takes four, one without two, a plain column one. */
export function csvNames<R>(c: ColumnSpec<R>): string[] {
  if (!isStatColumn(c)) return [c.csv];
  if (c.csvParts) return [...c.csvParts];
  return c.interval === false ? [c.csv, `${c.csv}_reason`] : [c.csv, `${c.csv}_lower`, `${c.csv}_upper`, `${c.csv}_reason`];
}

/**
 * The CSV cells of a column: a statistic's value, bounds and reason (the statistic's reason, else the interval's,
 * so a defined value whose interval was not computed says why its bounds are empty).
 */
export function csvCells<R>(c: ColumnSpec<R>, row: R): unknown[] {
  if (!isStatColumn(c)) return [c.get(row)];
  const s = readStat(row, c.key);
  if (c.interval === false) return [s.value, s.value === null ? (s.reason ?? null) : null];
  const i = s.interval;
  const reason = s.value === null ? s.reason : i && i.lower === null ? i.reason : undefined;
  return [s.value, i?.lower ?? null, i?.upper ?? null, reason ?? null];
}
