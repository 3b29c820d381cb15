/**
 * The alignment report's tables as column specs, so far a rubric study's: every summary (overall, per dimension,
 * per tutor, per tutor × dimension; strict and lenient), its class-wise accuracy and its confusion counts. The CSV
 * names are the downloads' headers from before the tables were data. (The pairwise report's tables, whose confusion
 * columns follow the label set, are still written by hand in lib/io/report-csv.ts.)
 */
import type { PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { RubricAlignmentReportDto, RubricAlignmentSummaryDto, RubricClasswiseDto, RubricSummaryDto } from './rubric';

/** Where a summary of a rubric alignment report applies: its judge, sample, tutor, dimension and scoring. */
export type RubricAlignmentScope = { judge: string; sample: number; tutor: string; dimension: string; scoring: 'strict' | 'lenient' };
export type RubricSummaryRow = RubricSummaryDto & { scope: RubricAlignmentScope };
export type RubricClasswiseRow = RubricClasswiseDto & { scope: RubricAlignmentScope };
export type RubricConfusionRow = { scope: RubricAlignmentScope; groundTruth: string; judge: string; count: number };

/** Every summary of a rubric alignment report, strict then lenient where there is a lenient one, in the CSV's order. */
export function rubricAlignmentSummaries(dto: RubricAlignmentReportDto): RubricSummaryRow[] {
  const out: RubricSummaryRow[] = [];
  const add = (model: string | null, criterion: string | null, s: RubricAlignmentSummaryDto) => {
    const at = { judge: dto.judge, sample: dto.sample, tutor: model ?? 'all', dimension: criterion ?? 'all' };
    out.push({ ...s, scope: { ...at, scoring: 'strict' } });
    if (s.lenient) out.push({ ...s.lenient, scope: { ...at, scoring: 'lenient' } });
  };
  add(null, null, dto.overall);
  for (const c of dto.byCriterion) add(null, c.criterion, c);
  for (const m of dto.byModel) {
    add(m.model, null, m);
    for (const c of m.byCriterion) add(m.model, c.criterion, c);
  }
  return out;
}

const SCOPE: readonly { id: keyof RubricAlignmentScope; header: string }[] = [
  { id: 'judge', header: 'Judge' },
  { id: 'sample', header: 'Sample' },
  { id: 'tutor', header: 'Tutor' },
  { id: 'dimension', header: 'Dimension' },
  { id: 'scoring', header: 'Scoring' },
];
const scopeColumns = <R extends { scope: RubricAlignmentScope }>(): PlainColumnSpec<R>[] =>
  SCOPE.map(({ id, header }) => ({ id, csv: id, header, value: 'text', get: (r) => r.scope[id] }));
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
