import type {
  AlignmentReportDto,
  AlignmentSummaryDto,
  IntervalDto,
  LeaderboardReportDto,
  StatDto,
  VoteAgreementDto,
} from '@/lib/server/analytics/dto';
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

/* ----- alignment ----- */

const SUMMARY_COLS = [
  'n',
  'agree',
  ...statCols('alignment_rate'),
  'n_no_ties',
  ...statCols('alignment_rate_no_ties'),
  ...statCols('cohen_kappa'),
  ...statCols('cohen_kappa_linear'),
  ...statCols('cohen_kappa_quadratic'),
];

const summaryCells = (s: AlignmentSummaryDto): unknown[] => [
  s.n,
  s.agree,
  ...statCells(s.alignmentRate, s.intervals.alignmentRate),
  s.nNoTies,
  ...statCells(s.alignmentRateNoTies, s.intervals.alignmentRateNoTies),
  ...statCells(s.cohenKappa, s.intervals.cohenKappa),
  ...statCells(s.cohenKappaLinear, s.intervals.cohenKappaLinear),
  ...statCells(s.cohenKappaQuadratic, s.intervals.cohenKappaQuadratic),
];

const voteCells = (v: VoteAgreementDto): unknown[] => [
  v.n,
  ...statCells(v.agreement, v.intervals.agreement),
  v.nNoTies,
  ...statCells(v.agreementNoTies, v.intervals.agreementNoTies),
];

function alignmentTables(dto: AlignmentReportDto): Record<ReportTable<'alignment'>, () => string[]> {
  const pc = dto.positionConsistency;
  return {
    overall: () =>
      table(
        [
          'judge',
          'ground_truth_rule',
          'ground_truth_labels',
          'incomplete_items',
          'unparsed_verdicts',
          'unjudged',
          ...SUMMARY_COLS,
          'position_consistency_n',
          ...statCols('position_consistency'),
        ],
        [
          [
            dto.judge,
            dto.groundTruthRule,
            dto.groundTruth.labels,
            dto.groundTruth.incompleteItems,
            dto.unparsedVerdicts,
            dto.unjudged,
            ...summaryCells(dto.overall),
            ...('n' in pc ? [pc.n, ...statCells(pc.rate, pc.interval)] : [0, null, null, null, pc.reason]),
          ],
        ],
      ),
    confusion: () =>
      table(
        ['judge', 'ground_truth', ...dto.labelSet.map((l) => `judge_${l}`)],
        dto.labelSet.map((label, r) => [dto.judge, label, ...dto.overall.confusion[r]]),
      ),
    criteria: () =>
      table(
        ['judge', 'criterion', 'name', 'level', 'principle', 'unjudged', ...SUMMARY_COLS],
        dto.byCriterion.map((c) => [dto.judge, c.criterion, c.name, c.level, c.principle ?? null, c.unjudged, ...summaryCells(c)]),
      ),
    principles: () =>
      table(
        ['judge', 'principle', 'criteria', ...SUMMARY_COLS],
        dto.byPrinciple.map((p) => [dto.judge, p.principle, p.criteria.join(';'), ...summaryCells(p)]),
      ),
    models: () =>
      table(
        ['judge', 'model', ...SUMMARY_COLS],
        dto.byModel.map((m) => [dto.judge, m.model, ...summaryCells(m)]),
      ),
    annotators: () =>
      table(
        ['judge', 'comparison', 'annotator', 'n', ...statCols('agreement'), 'n_no_ties', ...statCols('agreement_no_ties')],
        [
          ...dto.judgeVsAnnotators.map((a) => [dto.judge, 'judge_vs_annotator', a.annotator, ...voteCells(a)]),
          [dto.judge, 'judge_vs_all_humans', null, ...voteCells(dto.judgeVsHuman)],
          [dto.judge, 'human_vs_human', null, ...voteCells(dto.humanVsHuman)],
        ],
      ),
  };
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
  alignment: alignmentTables,
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
