/**
 * The alignment report's tables as column specs, for every kind: a pairwise study's (the overall summary, the
 * confusion counts, per criterion, principle and model, the judge beside the reviewers) and a rubric study's (every
 * summary — overall, per dimension, per tutor, per tutor × dimension; strict and lenient — its class-wise accuracy
 * and its confusion counts). The CSV names are the downloads' headers from before the tables were data. The
 * dashboard (one for every kind), the CSV writer and the screens' list of tables (`ALIGNMENT_SCREENS`) read them.
 */
import type { ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { Reason, StatDto } from './common';
import type { AlignmentReportDto, AlignmentSummaryDto, VoteAgreementDto } from './pairwise';
import type { RubricAlignmentReportDto, RubricAlignmentSummaryDto, RubricClasswiseDto, RubricSummaryDto } from './rubric';

/** Where a summary of a rubric alignment report applies: its judge, sample, tutor, dimension and scoring. */
export type RubricAlignmentScope = {
  judge: string;
  sample: number;
  tutor: string;
  dimension: string;
  scoring: 'strict' | 'lenient';
  /** The dimension's name, for the screen (`all` pooled). */
  dimensionName: string;
};
export type RubricSummaryRow = RubricSummaryDto & { scope: RubricAlignmentScope };
export type RubricClasswiseRow = RubricClasswiseDto & { scope: RubricAlignmentScope };
export type RubricConfusionRow = { scope: RubricAlignmentScope; groundTruth: string; judge: string; count: number };

/** Every summary of a rubric alignment report, strict then lenient where there is a lenient one, in the CSV's order. */
export function rubricAlignmentSummaries(dto: RubricAlignmentReportDto): RubricSummaryRow[] {
  const out: RubricSummaryRow[] = [];
  const add = (model: string | null, criterion: { criterion: string; name: string } | null, s: RubricAlignmentSummaryDto) => {
    const dimension = criterion?.criterion ?? 'all';
    const at = {
      judge: dto.judge,
      sample: dto.sample,
      tutor: model ?? 'all',
      dimension,
      dimensionName: criterion?.name ?? 'All dimensions',
    };
    out.push({ ...s, scope: { ...at, scoring: 'strict' } });
    if (s.lenient) out.push({ ...s.lenient, scope: { ...at, scoring: 'lenient' } });
  };
  add(null, null, dto.overall);
  for (const c of dto.byCriterion) add(null, c, c);
  for (const m of dto.byModel) {
    add(m.model, null, m);
    for (const c of m.byCriterion) add(m.model, c, c);
  }
  return out;
}

const SCOPE: readonly { id: Exclude<keyof RubricAlignmentScope, 'dimensionName'>; header: string }[] = [
  { id: 'judge', header: 'Judge' },
  { id: 'sample', header: 'Sample' },
  { id: 'tutor', header: 'Tutor' },
  { id: 'dimension', header: 'Dimension' },
  { id: 'scoring', header: 'Scoring' },
];
const scopeColumns = <R extends { scope: RubricAlignmentScope }>(): PlainColumnSpec<R>[] =>
  SCOPE.map(({ id, header }) => ({
    id,
    csv: id,
    header,
    value: 'text',
    get: (r) => r.scope[id],
    ...(id === 'dimension' ? { display: (r: R) => r.scope.dimensionName } : {}),
  }));
const key = (s: RubricAlignmentScope) => `${s.tutor}:${s.dimension}:${s.scoring}`;

export const rubricAlignmentTables = {
  summaries: {
    id: 'summaries',
    title: 'Alignment with ground truth',
    rows: rubricAlignmentSummaries,
    columns: [
      ...scopeColumns<RubricSummaryRow>(),
      { id: 'n', csv: 'n', header: 'Labels', value: 'count', get: (r) => r.n },
      { id: 'agree', csv: 'agree', header: 'Agree', value: 'count', get: (r) => r.agree },
      stat('alignmentRate', 'accuracy', 'Accuracy', 'percent'),
      stat('macroF1', 'macro_f1', 'Macro-F1', 'ratio', { interval: false }),
      stat('cohenKappa', 'cohen_kappa', 'κ', 'ratio'),
    ],
    rowKey: (r) => key(r.scope),
  } satisfies TableSpec<RubricAlignmentReportDto, RubricSummaryRow>,
  classwise: {
    id: 'classwise',
    title: 'Class-wise accuracy',
    rows: (dto) => rubricAlignmentSummaries(dto).flatMap((s) => s.classwise.map((c) => ({ ...c, scope: s.scope }))),
    columns: [
      ...scopeColumns<RubricClasswiseRow>(),
      { id: 'label', csv: 'label', header: 'Label', value: 'text', get: (c) => c.label },
      { id: 'predicted', csv: 'predicted', header: 'Predicted', value: 'count', get: (c) => c.predicted },
      { id: 'correct', csv: 'correct', header: 'Correct', value: 'count', get: (c) => c.correct },
      { ...stat('accuracy', 'classwise_accuracy', 'Class-wise accuracy', 'percent'), id: 'classwise_accuracy' },
      { id: 'support', csv: 'support', header: 'Support', value: 'count', get: (c) => c.support },
      stat('recall', 'recall', 'Recall', 'percent'),
    ],
    rowKey: (c) => `${key(c.scope)}:${c.label}`,
  } satisfies TableSpec<RubricAlignmentReportDto, RubricClasswiseRow>,
  confusion: {
    id: 'confusion',
    title: 'Confusion counts',
    rows: (dto) =>
      rubricAlignmentSummaries(dto).flatMap((s) => {
        const labels = s.labels;
        const m = s.confusion;
        if (!labels || !m) return [];
        return labels.flatMap((g, h) => labels.map((j, k) => ({ scope: s.scope, groundTruth: g, judge: j, count: m[h][k] })));
      }),
    columns: [
      ...scopeColumns<RubricConfusionRow>(),
      { id: 'ground_truth', csv: 'ground_truth', header: 'Ground truth', value: 'text', get: (c) => c.groundTruth },
      { id: 'judge_label', csv: 'judge', header: 'Judge’s label', value: 'text', get: (c) => c.judge },
      { id: 'count', csv: 'count', header: 'Count', value: 'count', get: (c) => c.count },
    ],
    rowKey: (c) => `${key(c.scope)}:${c.groundTruth}:${c.judge}`,
  } satisfies TableSpec<RubricAlignmentReportDto, RubricConfusionRow>,
};

/* ----- a pairwise study's tables ----- */

/** A summary's statistics, in the CSV's order; the dashboard shows the rate with and without ties and κ. */
const pairwiseSummaryColumns = <R extends AlignmentSummaryDto>(): ColumnSpec<R>[] => [
  { id: 'n', csv: 'n', header: 'Labels', value: 'count', get: (r) => r.n },
  { id: 'agree', csv: 'agree', header: 'Agree', value: 'count', get: (r) => r.agree, csvOnly: true },
  stat('alignmentRate', 'alignment_rate', 'Alignment rate', 'percent'),
  { id: 'n_no_ties', csv: 'n_no_ties', header: 'Labels without ties', value: 'count', get: (r) => r.nNoTies },
  stat('alignmentRateNoTies', 'alignment_rate_no_ties', 'Without ties', 'percent'),
  stat('cohenKappa', 'cohen_kappa', 'Cohen’s κ', 'ratio'),
  { ...stat('cohenKappaLinear', 'cohen_kappa_linear', 'Cohen’s κ, linear weights', 'ratio'), csvOnly: true },
  { ...stat('cohenKappaQuadratic', 'cohen_kappa_quadratic', 'Cohen’s κ, quadratic weights', 'ratio'), csvOnly: true },
];

type Judged = { judge: string };
const judgeColumn = <R extends Judged>(): PlainColumnSpec<R> => ({
  id: 'judge',
  csv: 'judge',
  header: 'Judge',
  value: 'text',
  get: (r) => r.judge,
  csvOnly: true,
});

/**
 * The report's header and its overall summary, as one row. Position consistency is an object in the DTO (or a
 * missing value when no item was judged in both orders); in the JSON it is an object or `null` with its reason.
 */
export type AlignmentOverallRow = AlignmentSummaryDto &
  Judged & {
    groundTruthRule: string;
    groundTruthLabels: number;
    incompleteItems: number;
    unparsedVerdicts: number;
    unjudged: number;
    positionConsistencyN: number;
    positionConsistency: StatDto | number | null;
    positionConsistencyReason?: Reason;
  };

type PositionConsistencyEither =
  { n: number; rate: StatDto | number | null; rateReason?: Reason; interval: unknown } | { value: null; reason: Reason } | null;

function overallRow(dto: AlignmentReportDto): AlignmentOverallRow {
  const pc = dto.positionConsistency as PositionConsistencyEither;
  const both = pc !== null && 'n' in pc ? pc : null;
  const reason = (dto as { positionConsistencyReason?: Reason }).positionConsistencyReason;
  return {
    judge: dto.judge,
    groundTruthRule: dto.groundTruthRule,
    groundTruthLabels: dto.groundTruth.labels,
    incompleteItems: dto.groundTruth.incompleteItems,
    unparsedVerdicts: dto.unparsedVerdicts,
    unjudged: dto.unjudged,
    ...dto.overall,
    positionConsistencyN: both ? both.n : 0,
    positionConsistency: both ? both.rate : (pc as StatDto | null),
    ...(both
      ? both.rateReason
        ? { positionConsistencyReason: both.rateReason }
        : {}
      : reason
        ? { positionConsistencyReason: reason }
        : {}),
    intervals: { ...dto.overall.intervals, ...(both ? { positionConsistency: both.interval } : {}) } as AlignmentSummaryDto['intervals'],
  };
}

const plain = <R>(
  id: string,
  header: string,
  get: (r: R) => string | number | null,
  more: Partial<PlainColumnSpec<R>> = {},
): PlainColumnSpec<R> => ({
  id,
  csv: id,
  header,
  value: 'text',
  get,
  ...more,
});
const counted = <R>(id: string, header: string, get: (r: R) => number, more: Partial<PlainColumnSpec<R>> = {}): PlainColumnSpec<R> => ({
  id,
  csv: id,
  header,
  value: 'count',
  get,
  ...more,
});

export type AlignmentCriterionRow = AlignmentReportDto['byCriterion'][number] & Judged;
export type AlignmentPrincipleRow = AlignmentReportDto['byPrinciple'][number] & Judged;
export type AlignmentModelRow = AlignmentReportDto['byModel'][number] & Judged;
export type AlignmentConfusionRow = Judged & { groundTruth: string; counts: number[] };
export type AlignmentVotesRow = VoteAgreementDto & Judged & { comparison: string; annotator: string | null };

const COMPARISON: Record<string, string> = {
  judge_vs_all_humans: 'Judge vs all human votes',
  human_vs_human: 'Human vs human (ceiling)',
};

export const pairwiseAlignmentTables = {
  overall: {
    id: 'overall',
    title: 'Against the ground truth',
    rows: (dto) => [overallRow(dto)],
    columns: [
      judgeColumn<AlignmentOverallRow>(),
      plain('ground_truth_rule', 'Ground-truth rule', (r) => r.groundTruthRule),
      counted('ground_truth_labels', 'Ground-truth labels', (r) => r.groundTruthLabels),
      counted('incomplete_items', 'Items not settled', (r) => r.incompleteItems),
      counted('unparsed_verdicts', 'Unreadable verdicts', (r) => r.unparsedVerdicts),
      counted('unjudged', 'Unjudged labels', (r) => r.unjudged),
      ...pairwiseSummaryColumns<AlignmentOverallRow>(),
      counted('position_consistency_n', 'Judged in both orders', (r) => r.positionConsistencyN),
      stat('positionConsistency', 'position_consistency', 'Position consistency', 'percent'),
    ],
    rowKey: (r) => r.judge,
  } satisfies TableSpec<AlignmentReportDto, AlignmentOverallRow>,
  confusion: {
    id: 'confusion',
    title: 'Confusion matrix',
    rows: (dto) => dto.labelSet.map((label, r) => ({ judge: dto.judge, groundTruth: label, counts: dto.overall.confusion[r] })),
    columns: [
      judgeColumn<AlignmentConfusionRow>(),
      plain('ground_truth', 'Ground truth', (r) => r.groundTruth),
      // The label set of a pairwise study, in its order (lose, tie, win).
      ...(['lose', 'tie', 'win'] as const).map((l, k) => counted<AlignmentConfusionRow>(`judge_${l}`, `Judge: ${l}`, (r) => r.counts[k])),
    ],
    rowKey: (r) => r.groundTruth,
  } satisfies TableSpec<AlignmentReportDto, AlignmentConfusionRow>,
  criteria: {
    id: 'criteria',
    title: 'By criterion',
    rows: (dto) => dto.byCriterion.map((c) => ({ ...c, judge: dto.judge })),
    columns: [
      judgeColumn<AlignmentCriterionRow>(),
      plain('criterion', 'Id', (c) => c.criterion, { csvOnly: true }),
      plain('name', 'Criterion', (c) => c.name, {
        note: (c) => (c.level === 'principle' ? (c.principle ?? null) : c.level === 'general' ? 'general' : null),
      }),
      plain('level', 'Level', (c) => c.level, { csvOnly: true }),
      plain('principle', 'Principle', (c) => c.principle ?? null, { csvOnly: true }),
      counted('unjudged', 'Unjudged', (c) => c.unjudged),
      ...pairwiseSummaryColumns<AlignmentCriterionRow>(),
    ],
    rowKey: (c) => c.criterion,
  } satisfies TableSpec<AlignmentReportDto, AlignmentCriterionRow>,
  principles: {
    id: 'principles',
    title: 'By principle',
    rows: (dto) => dto.byPrinciple.map((p) => ({ ...p, judge: dto.judge })),
    columns: [
      judgeColumn<AlignmentPrincipleRow>(),
      plain('principle', 'Principle', (p) => p.principle, { note: (p) => `${p.criteria.length} criteria` }),
      plain('criteria', 'Criteria', (p) => p.criteria.join(';'), { csvOnly: true }),
      ...pairwiseSummaryColumns<AlignmentPrincipleRow>(),
    ],
    rowKey: (p) => p.principle,
  } satisfies TableSpec<AlignmentReportDto, AlignmentPrincipleRow>,
  models: {
    id: 'models',
    title: 'By model',
    rows: (dto) => dto.byModel.map((m) => ({ ...m, judge: dto.judge })),
    columns: [judgeColumn<AlignmentModelRow>(), plain('model', 'Model', (m) => m.model), ...pairwiseSummaryColumns<AlignmentModelRow>()],
    rowKey: (m) => m.model,
  } satisfies TableSpec<AlignmentReportDto, AlignmentModelRow>,
  annotators: {
    id: 'annotators',
    title: 'The judge beside the reviewers',
    rows: (dto) => [
      ...dto.judgeVsAnnotators.map((a) => ({ ...a, judge: dto.judge, comparison: 'judge_vs_annotator' })),
      { ...dto.judgeVsHuman, judge: dto.judge, comparison: 'judge_vs_all_humans', annotator: null },
      { ...dto.humanVsHuman, judge: dto.judge, comparison: 'human_vs_human', annotator: null },
    ],
    columns: [
      judgeColumn<AlignmentVotesRow>(),
      plain('comparison', 'Comparison', (v) => v.comparison, {
        display: (v) => (v.annotator !== null ? `Judge vs ${v.annotator}` : (COMPARISON[v.comparison] ?? v.comparison)),
      }),
      plain('annotator', 'Annotator', (v) => v.annotator, { csvOnly: true }),
      counted('n', 'Votes', (v) => v.n),
      stat('agreement', 'agreement', 'Agreement', 'percent'),
      counted('n_no_ties', 'Votes without ties', (v) => v.nNoTies),
      stat('agreementNoTies', 'agreement_no_ties', 'Without ties', 'percent'),
    ],
    rowKey: (v) => `${v.comparison}:${v.annotator ?? ''}`,
  } satisfies TableSpec<AlignmentReportDto, AlignmentVotesRow>,
};

/* ----- what the dashboard shows ----- */

/** A row the chosen scoring has no value for (a dimension without a lenient map): one cell says why. */
export type AlignmentMissingRow = { missing: string; key: string; name: string };

/**
 * One table of the alignment dashboard: a table of the report (its columns and its CSV), the rows shown for the
 * chosen scoring (strict, or lenient where the report folds labels), and how it reads on the screen. The dashboard
 * is one component for every kind: what it shows of a kind's report is this list.
 */
export type AlignmentScreenTable = {
  table: string;
  title: string;
  explain?: string;
  testId?: string;
  /** Columns the screen leaves out because they are the same on every row shown (the judge, the scoring, …). */
  hide?: readonly string[];
  rows: (report: never, lenient: boolean) => unknown[];
  /** Rows with nothing to measure, folded under the table: what one and many are called. */
  fold?: [string, string];
  /** What the card says when the table has no row at all. */
  none?: string;
  /** Rows under a heading row per group (e.g. per tutor). */
  groupBy?: (row: never) => string;
};

const scored = (rows: RubricSummaryRow[], lenient: boolean) => rows.filter((r) => r.scope.scoring === (lenient ? 'lenient' : 'strict'));
const RUBRIC_SCOPE = ['judge', 'sample', 'tutor', 'scoring', 'agree'];

/** The overall figures of the dashboard: each statistic of this table's row (the report as a whole) that the screen shows. */
export type AlignmentHeadline = { table: string; row: (report: never, lenient: boolean) => unknown };

export const ALIGNMENT_HEADLINE: Record<'alignment' | 'rubric-alignment', AlignmentHeadline> = {
  alignment: { table: 'overall', row: (dto: AlignmentReportDto) => overallRow(dto) },
  'rubric-alignment': {
    table: 'summaries',
    row: (dto: RubricAlignmentReportDto, lenient: boolean) => (lenient ? dto.overall.lenient : dto.overall),
  },
};

export const ALIGNMENT_SCREENS: Record<'alignment' | 'rubric-alignment', AlignmentScreenTable[]> = {
  alignment: [
    {
      table: 'criteria',
      title: 'By criterion',
      testId: 'criterion-table',
      rows: pairwiseAlignmentTables.criteria.rows,
      fold: ['criterion', 'criteria'],
    },
    {
      table: 'principles',
      title: 'By principle',
      explain: 'The principle-level criteria of each principle, pooled.',
      rows: pairwiseAlignmentTables.principles.rows,
      fold: ['principle', 'principles'],
      none: 'This study has no principle-level criteria.',
    },
    {
      table: 'models',
      title: 'By model',
      explain: 'The model that wrote reply a (never shown to reviewers).',
      testId: 'model-table',
      rows: pairwiseAlignmentTables.models.rows,
      fold: ['model', 'models'],
    },
    {
      table: 'annotators',
      title: 'The judge beside the reviewers',
      explain:
        'Human vs human is the ceiling. Each reviewer’s own labels before adjudication, one comparison per vote (MT-Bench), on the items and criteria the judge labelled.',
      testId: 'annotators-table',
      rows: pairwiseAlignmentTables.annotators.rows,
    },
  ],
  'rubric-alignment': [
    {
      table: 'summaries',
      title: 'Per dimension',
      explain:
        'How often the judge gives a reply the label people settled on, per dimension. Macro-F1 weighs every label equally, so a judge that only ever says the common label scores low; κ takes away chance agreement.',
      testId: 'rubric-alignment-table',
      hide: RUBRIC_SCOPE,
      rows: (dto: RubricAlignmentReportDto, lenient: boolean) => {
        const shown = scored(rubricAlignmentSummaries(dto), lenient).filter((r) => r.scope.tutor === 'all' && r.scope.dimension !== 'all');
        return dto.byCriterion.map(
          (c): RubricSummaryRow | AlignmentMissingRow =>
            shown.find((r) => r.scope.dimension === c.criterion) ?? { missing: 'no lenient map', key: c.criterion, name: c.name },
        );
      },
    },
    {
      table: 'summaries',
      title: 'Per tutor and dimension',
      explain:
        'The judge’s accuracy on each tutor’s replies (as in Padó’s Table 3): a judge can be reliable for one tutor and not for another.',
      testId: 'rubric-tutor-table',
      hide: RUBRIC_SCOPE,
      rows: (dto: RubricAlignmentReportDto, lenient: boolean) =>
        scored(rubricAlignmentSummaries(dto), lenient).filter((r) => r.scope.tutor !== 'all'),
      groupBy: (r: RubricSummaryRow) => r.scope.tutor,
    },
  ],
};
