/**
 * The hybrid review plan's tables, one definition for every kind of study: the plan (or plans) and the judge's
 * predicted classes with their decisions. A kind says which plans its report holds and the columns that say what
 * each plan is about (`HybridScope`, from `lib/kinds/<kind>/report-columns.ts`); the statistics are the same.
 */
import type { ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { IntervalDto } from './common';
import type { HybridClassDto } from './pairwise';
import type { HybridPlanDto } from './rubric';

/** One plan of a report, with what it is about (judge, dimension, tutor, …) in `about`. */
export type HybridPlanRow = HybridPlanDto & { about: Record<string, string | number | boolean> };
export type HybridClassRow = HybridClassDto & { plan: HybridPlanRow; intervals: { classwiseAccuracy: IntervalDto } };

export type HybridScope<D> = {
  /** The plans of the report, in the CSV's order. */
  plans: (report: D) => HybridPlanRow[];
  /** The columns before the statistics of a plan, and of a class. */
  planKeys: readonly PlainColumnSpec<HybridPlanRow>[];
  classKeys: readonly PlainColumnSpec<HybridPlanRow>[];
  /** The table names the report route knows (`plan` for one plan, `plans` for several). */
  planTable: string;
};

const list = (xs: readonly string[]) => xs.join(';');

/** The plan's columns after what it is about, in the CSV's order. */
export const PLAN_COLUMNS: readonly ColumnSpec<HybridPlanRow>[] = [
  { id: 'n', csv: 'n', header: 'Calibration items', value: 'count', get: (p) => p.n },
  { id: 'unjudged', csv: 'unjudged', header: 'Unjudged', value: 'count', get: (p) => p.unjudged },
  stat('accJudge', 'acc_judge', 'Judge alone', 'percent'),
  { id: 'accepted_class', csv: 'accepted_class', header: 'Accepted class', value: 'text', get: (p) => p.acceptedClass },
  { id: 'reviewed_classes', csv: 'reviewed_classes', header: 'Reviewed classes', value: 'text', get: (p) => list(p.reviewedClasses) },
  { id: 'unpredicted_labels', csv: 'unpredicted_labels', header: 'Never predicted', value: 'text', get: (p) => list(p.unpredictedLabels) },
  { id: 'reviewed', csv: 'reviewed', header: 'Reviewed', value: 'count', get: (p) => p.reviewed },
  stat('accHybrid', 'acc_hybrid', 'Hybrid accuracy', 'percent'),
  stat('effortSaved', 'effort_saved', 'Effort saved', 'percent'),
  { id: 'errors_to_fix', csv: 'errors_to_fix', header: 'Errors to fix', value: 'count', get: (p) => p.errorsToFix },
  { id: 'extra_reviews_expected', csv: 'extra_reviews_expected', header: 'Extra reviews', value: 'count', get: (p) => p.extraReviewsExpected },
  stat('accExpectedAfter', 'acc_expected_after', 'Accuracy after', 'percent', { interval: false }),
  stat('effortSavedExpectedAfter', 'effort_saved_expected_after', 'Effort saved after', 'percent', { interval: false }),
  {
    id: 'extra_reviews_worst_case',
    csv: 'extra_reviews_worst_case',
    header: 'Extra reviews, worst case',
    value: 'count',
    get: (p) => p.extraReviewsWorstCase,
  },
  stat('effortSavedWorstCase', 'effort_saved_worst_case', 'Effort saved, worst case', 'percent', { interval: false }),
];

/** A predicted class's columns after what its plan is about. */
export const CLASS_COLUMNS: readonly ColumnSpec<HybridClassRow>[] = [
  { id: 'label', csv: 'label', header: 'Predicted label', value: 'text', get: (c) => c.label },
  { id: 'predicted', csv: 'predicted', header: 'Predicted', value: 'count', get: (c) => c.predicted },
  { id: 'correct', csv: 'correct', header: 'Correct', value: 'count', get: (c) => c.correct },
  stat('classwiseAccuracy', 'classwise_accuracy', 'Class-wise accuracy', 'percent'),
  { id: 'decision', csv: 'decision', header: 'Decision', value: 'text', get: (c) => c.decision },
];

const onPlan = (c: PlainColumnSpec<HybridPlanRow>): PlainColumnSpec<HybridClassRow> => ({
  ...c,
  get: (k) => c.get(k.plan),
  display: c.display && ((k) => c.display!(k.plan)),
  note: undefined,
});

export function hybridTables<D>(scope: HybridScope<D>): Record<string, TableSpec<D, HybridPlanRow> | TableSpec<D, HybridClassRow>> {
  const plan: TableSpec<D, HybridPlanRow> = {
    id: scope.planTable,
    title: 'Hybrid review plan',
    rows: scope.plans,
    columns: [...scope.planKeys, ...PLAN_COLUMNS],
    rowKey: (p) => JSON.stringify(p.about),
  };
  const classes: TableSpec<D, HybridClassRow> = {
    id: 'classes',
    title: 'Predicted classes',
    rows: (r) =>
      scope.plans(r).flatMap((p) => p.classes.map((c) => ({ ...c, plan: p, intervals: { classwiseAccuracy: c.interval } }))),
    columns: [...scope.classKeys.map(onPlan), ...CLASS_COLUMNS],
    rowKey: (c) => `${JSON.stringify(c.plan.about)}:${c.label}`,
  };
  return { [scope.planTable]: plan, classes };
}
