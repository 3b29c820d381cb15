import type { IntervalDto, LeaderboardReportDto, StatDto } from '@/lib/server/analytics/dto';
import {
  type ReportDtos,
  type ReportName,
  type ReportTable,
  REPORT_SPECS,
  type TableSpec,
  hasSpecs,
  csvCells,
  csvNames,
  isStatColumn,
} from '@/lib/server/analytics/dto';
import { certifyLeaderboardTables } from './certify-csv';
import { csvTable as table, statCells, statCols } from './report-cells';

/*
 * The tables of the analytics reports as CSV: one header line, then one line per row, each ending in CRLF, every
 * string cell neutralised against formulas (lib/io/csv). Numbers are written at full precision (the page rounds,
 * a download must not).
 *
 * A statistic takes four columns: `<name>`, `<name>_lower`, `<name>_upper` (its 95 % interval) and `<name>_reason`.
 * An undefined value is an empty cell whose reason (docs/cli.md: `no_variation`, `unequal_ratings`, …) is in
 * `_reason`; when the value is defined but its interval is not (e.g. `not_computed` with the bootstrap off), the
 * bounds are empty and `_reason` gives the interval's reason. A value that has no interval takes two columns,
 * `<name>` and `<name>_reason`.
 */

/** One table written from its column specs: the CSV names and cells of every column the CSV shows. */
export function specCsv<D, R>(spec: TableSpec<D, R>, dto: D): string[] {
  const columns = spec.columns.filter((c) => isStatColumn(c) || !c.screenOnly);
  return table(
    columns.flatMap((c) => csvNames(c)),
    spec.rows(dto).map((row) => columns.flatMap((c) => csvCells(c, row))),
  );
}

/* ----- leaderboard ----- */

/** Every principle that appears in any row, in order of first appearance (the catalog's order). */
export function leaderboardPrinciples(dto: LeaderboardReportDto): string[] {
  const seen = new Set<string>();
  for (const row of dto.rows) for (const p of Object.keys(row.principleLevelAcc)) seen.add(p);
  return [...seen];
}

const NO_VALUE: StatDto = { value: null, reason: 'no_items' };
const NO_INTERVAL: IntervalDto = { method: 'bootstrap', lower: null, upper: null, reason: 'no_items' };

function leaderboardTables(dto: LeaderboardReportDto): Record<ReportTable<'leaderboard'>, () => string[]> {
  const principles = leaderboardPrinciples(dto);
  return {
    ...certifyLeaderboardTables(dto),
    leaderboard: () =>
      table(
        [
          'tie_policy',
          'model',
          'grader',
          'items',
          ...statCols('overall_judgement'),
          ...statCols('general_level_acc'),
          ...principles.flatMap((p) => statCols(`principle_level_acc:${p}`)),
          ...statCols('overall_acc'),
          ...statCols('alignment_rate'),
        ],
        dto.rows.map((r) => [
          dto.tiePolicy,
          r.model,
          r.grader,
          r.items,
          ...statCells(r.overallJudgement, r.intervals.overallJudgement),
          ...statCells(r.generalLevelAcc, r.intervals.generalLevelAcc),
          // A principle a row has no criteria labelled for is missing from its record: nothing to average.
          ...principles.flatMap((p) => statCells(r.principleLevelAcc[p] ?? NO_VALUE, r.intervals.principleLevelAcc[p] ?? NO_INTERVAL)),
          ...statCells(r.overallAcc, r.intervals.overallAcc),
          ...statCells(r.alignmentRate, r.intervals.alignmentRate),
        ]),
      ),
    criteria: () =>
      table(
        ['tie_policy', 'model', 'grader', 'criterion', 'win', 'tie', 'loss', ...statCols('win_rate')],
        dto.rows.flatMap((r) =>
          Object.entries(r.counts).map(([criterion, c]) => [
            dto.tiePolicy,
            r.model,
            r.grader,
            criterion,
            c.win,
            c.tie,
            c.loss,
            ...statCells(r.perCriterion[criterion] ?? NO_VALUE, r.intervals.perCriterion[criterion] ?? NO_INTERVAL),
          ]),
        ),
      ),
  };
}

/* ----- entry point ----- */

/** The reports whose tables are still written by hand (their columns follow the report); every other has specs. */
type HandWritten = Exclude<ReportName, keyof typeof REPORT_SPECS>;
const HAND_WRITTEN: { [R in HandWritten]: (dto: ReportDtos[R]) => Record<ReportTable<R>, () => string[]> } = {
  leaderboard: leaderboardTables,
};

/** One table of a report as CSV lines (header first). */
export function reportCsv<R extends ReportName>(report: R, tableName: ReportTable<R>, dto: ReportDtos[R]): string[] {
  if (hasSpecs(report)) {
    const tables = REPORT_SPECS[report] as Record<string, TableSpec<unknown, unknown>>;
    return specCsv(tables[tableName], dto);
  }
  const write = HAND_WRITTEN[report as HandWritten] as (dto: unknown) => Record<string, () => string[]>;
  return write(dto)[tableName]();
}
