/**
 * The leaderboard report's tables as column specs, for both kinds: a pairwise study's KMP-Bench scores per model and
 * grader (a column per principle of its catalog), the win rate of every criterion, the judge-corrected win rates and
 * the rank agreement; a rubric study's share of each dimension's desired label per tutor and grader, and the
 * judge-corrected shares. The CSV names are the downloads' headers from before the tables were data.
 */
import type { AnyTableSpec, ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { IntervalDto, StatDto } from './common';
import type { CorrectedCellDto, RankAgreementDto } from './certify';
import type { LeaderboardReportDto, LeaderboardRowDto } from './pairwise';
import type { RubricCorrectedCellDto, RubricLeaderboardReportDto, RubricLeaderboardRowDto } from './rubric';

export type RubricShareRow = {
  row: RubricLeaderboardRowDto;
  dimension: string;
  counts: { n: number; desired: number; desiredLenient?: number };
  /** The shares `share` and `shareLenient` (with their reasons in the JSON form), read by their stat columns. */
  intervals: Record<string, unknown>;
} & Record<string, unknown>;
export type RubricCorrectedRow = RubricCorrectedCellDto & { judge: string };

/** A dimension's entry of a record of statistics (the DTO's StatDto, or the JSON's number with `<name>Reasons`). */
function entry(row: object, name: string, id: string, as: string): Record<string, unknown> {
  const r = row as Record<string, Record<string, unknown> | undefined>;
  const reason = r[`${name}Reasons`]?.[id];
  return { [as]: r[name]?.[id] ?? null, ...(reason !== undefined ? { [`${as}Reason`]: reason } : {}) };
}
const NOT_APPLICABLE: StatDto = { value: null, reason: 'not_applicable' };

/* ----- both kinds: what the corrected estimate rests on ----- */

/** Which estimator gave the corrected value and on how many labels (decisions 0038, 0045): appended, CSV only. */
const estimatorColumns = <R extends CorrectedCellDto>(): PlainColumnSpec<R>[] => [
  { id: 'estimator', csv: 'estimator', header: 'Estimator', value: 'text', csvOnly: true, get: (c) => c.estimator ?? 'ppi++' },
  {
    id: 'estimator_labels',
    csv: 'estimator_labels',
    header: 'Labels used',
    value: 'count',
    csvOnly: true,
    // PPI++ on the labelled items, or the active draw's weighted estimate on its drawn labels and those from before it.
    get: (c) => (c.active ? c.active.drawnLabelled + c.active.labelledBefore : c.labelled),
  },
  {
    id: 'labels_pending',
    csv: 'labels_pending',
    header: 'Labels pending',
    value: 'count',
    csvOnly: true,
    get: (c) => c.active?.pending ?? null,
  },
];

/* ----- a pairwise study ----- */

/** The tie policy the report was computed with, on every row of the CSV (the dashboard and the text say it once). */
type Tied = { tiePolicy: string };
const tiePolicyColumn = <R extends Tied>(): PlainColumnSpec<R> => ({
  id: 'tie_policy',
  csv: 'tie_policy',
  header: 'Tie policy',
  value: 'text',
  csvOnly: true,
  get: (r) => r.tiePolicy,
});

/** A grader as a reader sees it: a judge run by its name, the people's settled labels as the ground truth. */
export const graderName = (grader: string) => (grader === 'ground truth' ? 'Ground truth' : grader);
const graderColumn = <R extends { grader: string }>(): PlainColumnSpec<R> => ({
  id: 'grader',
  csv: 'grader',
  header: 'Grader',
  value: 'text',
  get: (r) => r.grader,
  display: (r) => graderName(r.grader),
});

/** A principle or criterion that a row has nothing labelled for is missing from its record: nothing to average. */
const NO_VALUE: StatDto = { value: null, reason: 'no_items' };
const NO_INTERVAL: IntervalDto = { method: 'bootstrap', lower: null, upper: null, reason: 'no_items' };

/** Every principle that appears in any row, in order of first appearance (the catalog's order). */
export function leaderboardPrinciples(dto: { rows: readonly { principleLevelAcc: object }[] }): string[] {
  const seen = new Set<string>();
  for (const row of dto.rows) for (const p of Object.keys(row.principleLevelAcc)) seen.add(p);
  return [...seen];
}

/** The key of a principle's Principle-Level Acc on a row of the leaderboard table. */
const principleKey = (p: string) => `principleLevelAcc:${p}`;

export type LeaderboardBoardRow = LeaderboardRowDto & Tied & Record<string, unknown>;
export type LeaderboardCriterionRow = Tied & {
  model: string;
  grader: string;
  criterion: string;
  win: number;
  tie: number;
  loss: number;
  intervals: { winRate: IntervalDto };
} & Record<string, unknown>;
export type LeaderboardCorrectedRow = CorrectedCellDto & Tied & { judge: string };
export type LeaderboardRankRow = RankAgreementDto & Tied;

export const pairwiseLeaderboardTables = {
  leaderboard: {
    id: 'leaderboard',
    title: 'Leaderboard',
    rows: (dto) => {
      const principles = leaderboardPrinciples(dto);
      return dto.rows.map((r): LeaderboardBoardRow => {
        return {
          ...r,
          tiePolicy: dto.tiePolicy,
          ...Object.assign(
            {},
            ...principles.map((p) =>
              p in r.principleLevelAcc ? entry(r, 'principleLevelAcc', p, principleKey(p)) : { [principleKey(p)]: NO_VALUE },
            ),
          ),
          intervals: {
            ...r.intervals,
            ...Object.fromEntries(principles.map((p) => [principleKey(p), r.intervals.principleLevelAcc[p] ?? NO_INTERVAL])),
          },
        };
      });
    },
    columns: (dto): ColumnSpec<LeaderboardBoardRow>[] => [
      tiePolicyColumn(),
      { id: 'model', csv: 'model', header: 'Model', value: 'text', get: (r) => r.model },
      graderColumn(),
      { id: 'items', csv: 'items', header: 'Items', value: 'count', get: (r) => r.items },
      { ...stat('overallJudgement', 'overall_judgement', 'Overall Judgement', 'percent'), testId: 'overall-judgement' },
      stat('generalLevelAcc', 'general_level_acc', 'General-Level Acc', 'percent'),
      ...leaderboardPrinciples(dto).map((p) => ({
        ...stat(principleKey(p), `principle_level_acc:${p}`, `Principle-Level Acc: ${p}`, 'percent'),
        id: `principle_level_acc:${p}`,
      })),
      stat('overallAcc', 'overall_acc', 'Overall Acc', 'percent'),
      stat('alignmentRate', 'alignment_rate', 'Alignment rate', 'percent'),
    ],
    rowKey: (r) => `${r.model}\u0000${r.grader}`,
  } satisfies AnyTableSpec<LeaderboardReportDto, LeaderboardBoardRow>,
  criteria: {
    id: 'criteria',
    title: 'Win rate per criterion',
    rows: (dto) =>
      dto.rows.flatMap((r) =>
        Object.entries(r.counts).map(([criterion, c]): LeaderboardCriterionRow => ({
          tiePolicy: dto.tiePolicy,
          model: r.model,
          grader: r.grader,
          criterion,
          ...c,
          ...(criterion in r.perCriterion ? entry(r, 'perCriterion', criterion, 'winRate') : { winRate: NO_VALUE }),
          intervals: { winRate: r.intervals.perCriterion[criterion] ?? NO_INTERVAL },
        })),
      ),
    columns: [
      tiePolicyColumn<LeaderboardCriterionRow>(),
      { id: 'model', csv: 'model', header: 'Model', value: 'text', get: (r) => r.model },
      graderColumn<LeaderboardCriterionRow>(),
      { id: 'criterion', csv: 'criterion', header: 'Criterion', value: 'text', get: (r) => r.criterion },
      { id: 'win', csv: 'win', header: 'Wins', value: 'count', get: (r) => r.win },
      { id: 'tie', csv: 'tie', header: 'Ties', value: 'count', get: (r) => r.tie },
      { id: 'loss', csv: 'loss', header: 'Losses', value: 'count', get: (r) => r.loss },
      stat('winRate', 'win_rate', 'Win rate', 'percent'),
    ],
    rowKey: (r) => `${r.model}\u0000${r.grader}\u0000${r.criterion}`,
  } satisfies TableSpec<LeaderboardReportDto, LeaderboardCriterionRow>,
  corrected: {
    id: 'corrected',
    title: 'Judge-corrected win rates',
    rows: (dto) => dto.corrected.flatMap((run) => run.cells.map((c) => ({ ...c, judge: run.judge, tiePolicy: dto.tiePolicy }))),
    columns: [
      tiePolicyColumn<LeaderboardCorrectedRow>(),
      { id: 'judge', csv: 'judge', header: 'Judge', value: 'text', get: (c) => c.judge },
      { id: 'model', csv: 'model', header: 'Model', value: 'text', get: (c) => c.model },
      { id: 'criterion', csv: 'criterion', header: 'Criterion', value: 'text', get: (c) => c.criterion },
      { id: 'labelled', csv: 'labelled', header: 'Labelled', value: 'count', get: (c) => c.labelled },
      { id: 'unlabelled', csv: 'unlabelled', header: 'Unlabelled', value: 'count', get: (c) => c.unlabelled },
      { id: 'labelled_unjudged', csv: 'labelled_unjudged', header: 'Labelled, unjudged', value: 'count', get: (c) => c.labelledUnjudged },
      stat('corrected', 'corrected', 'Judge-corrected', 'percent'),
      stat('humanOnly', 'human_only', 'Human only', 'percent'),
      stat('judgeOnly', 'judge_only', 'Judge alone', 'percent'),
      stat('lambda', 'lambda', 'λ', 'ratio', { interval: false }),
      stat('effectiveLabels', 'effective_labels', 'Worth (human labels)', 'ratio', { interval: false }),
      { id: 'caution', csv: 'caution', header: 'Caution', value: 'text', get: (c) => c.caution ?? '' },
      ...estimatorColumns<LeaderboardCorrectedRow>(),
    ],
    rowKey: (c) => `${c.judge}\u0000${c.model}\u0000${c.criterion}`,
  } satisfies TableSpec<LeaderboardReportDto, LeaderboardCorrectedRow>,
  ranks: {
    id: 'ranks',
    title: 'Rank agreement',
    rows: (dto) => dto.rankAgreement.map((r) => ({ ...r, tiePolicy: dto.tiePolicy })),
    columns: [
      tiePolicyColumn<LeaderboardRankRow>(),
      { id: 'grader', csv: 'grader', header: 'Judge run', value: 'text', get: (r) => r.grader },
      {
        id: 'scope',
        csv: 'scope',
        header: 'Ranking by',
        value: 'text',
        get: (r) => r.scope,
        display: (r) => (r.scope === 'overallAcc' ? 'Overall Acc' : r.scope),
      },
      { id: 'models', csv: 'models', header: 'Models', value: 'count', get: (r) => r.models },
      { ...stat('tauB', 'kendall_tau_b', 'Kendall τ-b', 'ratio'), testId: 'rank-tau' },
      stat('tauBPValue', 'kendall_p_value', 'p (τ-b)', 'p-value', { interval: false }),
      { id: 'kendall_method', csv: 'kendall_method', header: 'Kendall p-value method', value: 'text', get: (r) => r.kendallMethod },
      stat('spearmanRho', 'spearman_rho', 'Spearman ρ', 'ratio'),
      stat('spearmanPValue', 'spearman_p_value', 'p (ρ)', 'p-value', { interval: false }),
      { id: 'concordant', csv: 'concordant', header: 'Pairs ordered alike', value: 'count', get: (r) => r.concordant },
      { id: 'discordant', csv: 'discordant', header: 'Pairs ordered oppositely', value: 'count', get: (r) => r.discordant },
      {
        id: 'tied_ground_truth',
        csv: 'tied_ground_truth',
        header: 'Tied by the ground truth',
        value: 'count',
        get: (r) => r.tiedGroundTruth,
      },
      { id: 'tied_grader', csv: 'tied_grader', header: 'Tied by the judge', value: 'count', get: (r) => r.tiedGrader },
      { id: 'tied_both', csv: 'tied_both', header: 'Tied by both', value: 'count', get: (r) => r.tiedBoth },
    ],
    rowKey: (r) => `${r.grader}\u0000${r.scope}`,
  } satisfies TableSpec<LeaderboardReportDto, LeaderboardRankRow>,
};

/* ----- a rubric study ----- */

export const rubricLeaderboardTables = {
  leaderboard: {
    id: 'leaderboard',
    title: 'Share of desired labels',
    rows: (dto) =>
      dto.rows.flatMap((r) =>
        dto.dimensions.map((d): RubricShareRow => {
          const lenient = r.lenient[d.id] !== undefined;
          return {
            row: r,
            dimension: d.id,
            counts: r.counts[d.id],
            ...entry(r, 'perCriterion', d.id, 'share'),
            ...(lenient ? entry(r, 'lenient', d.id, 'shareLenient') : { shareLenient: NOT_APPLICABLE }),
            intervals: { share: r.intervals.perCriterion[d.id], shareLenient: lenient ? r.intervals.lenient[d.id] : undefined },
          };
        }),
      ),
    columns: [
      { id: 'tutor', csv: 'tutor', header: 'Tutor', value: 'text', get: (s) => s.row.model },
      { id: 'grader', csv: 'grader', header: 'Grader', value: 'text', get: (s) => s.row.grader },
      { id: 'dimension', csv: 'dimension', header: 'Dimension', value: 'text', get: (s) => s.dimension },
      { id: 'n', csv: 'n', header: 'Labels', value: 'count', get: (s) => s.counts.n },
      { id: 'desired', csv: 'desired', header: 'Desired', value: 'count', get: (s) => s.counts.desired },
      stat('share', 'share', 'Share', 'percent'),
      {
        id: 'desired_lenient',
        csv: 'desired_lenient',
        header: 'Desired, lenient',
        value: 'count',
        get: (s) => s.counts.desiredLenient ?? null,
      },
      stat('shareLenient', 'share_lenient', 'Share, lenient', 'percent'),
    ],
    rowKey: (s) => `${s.row.model}:${s.row.grader}:${s.dimension}`,
  } satisfies TableSpec<RubricLeaderboardReportDto, RubricShareRow>,
  corrected: {
    id: 'corrected',
    title: 'Judge-corrected shares',
    rows: (dto) => dto.corrected.flatMap((run) => run.cells.map((c) => ({ ...c, judge: run.judge }))),
    columns: [
      { id: 'judge', csv: 'judge', header: 'Judge', value: 'text', get: (c) => c.judge },
      { id: 'tutor', csv: 'tutor', header: 'Tutor', value: 'text', get: (c) => c.model },
      { id: 'dimension', csv: 'dimension', header: 'Dimension', value: 'text', get: (c) => c.criterion },
      { id: 'scoring', csv: 'scoring', header: 'Scoring', value: 'text', get: (c) => (c.lenient ? 'lenient' : 'strict') },
      { id: 'labelled', csv: 'labelled', header: 'Labelled', value: 'count', get: (c) => c.labelled },
      { id: 'unlabelled', csv: 'unlabelled', header: 'Unlabelled', value: 'count', get: (c) => c.unlabelled },
      { id: 'labelled_unjudged', csv: 'labelled_unjudged', header: 'Labelled, unjudged', value: 'count', get: (c) => c.labelledUnjudged },
      stat('humanOnly', 'human_only', 'Ground truth alone', 'percent'),
      stat('judgeOnly', 'judge_only', 'Judge alone', 'percent'),
      stat('corrected', 'corrected', 'Corrected', 'percent'),
      stat('lambda', 'lambda', 'λ', 'ratio', { interval: false }),
      stat('effectiveLabels', 'effective_labels', 'Effective labels', 'ratio', { interval: false }),
      { id: 'caution', csv: 'caution', header: 'Caution', value: 'text', get: (c) => c.caution ?? '' },
      ...estimatorColumns<RubricCorrectedRow>(),
    ],
    rowKey: (c) => `${c.judge}:${c.model}:${c.criterion}:${c.lenient}`,
  } satisfies TableSpec<RubricLeaderboardReportDto, RubricCorrectedRow>,
};
