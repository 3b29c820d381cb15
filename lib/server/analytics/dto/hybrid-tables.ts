/**
 * The hybrid review plan's tables, one definition for every kind of study: the plan (or plans) and the judge's
 * predicted classes with their decisions. A kind says which plans its report holds and the columns that say what
 * each plan is about (`HybridScope`, from `lib/kinds/<kind>/report-columns.ts`); the statistics are the same.
 */
import type { ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { AcceptanceDto, AcceptanceStratumDto } from './acceptance';
import type { UncertaintySourceDto } from './active';
import type { IntervalDto } from './common';
import type { HybridClassDto } from './pairwise';
import type { HybridPlanDto } from './rubric';

/** One plan of a report, with what it is about (judge, dimension, tutor, …) in `about`. */
export type HybridPlanRow = HybridPlanDto & { about: Record<string, string | number | boolean> };
export type HybridClassRow = HybridClassDto & { plan: HybridPlanRow; intervals: { classwiseAccuracy: IntervalDto } };
/** A plan's error-bounded acceptance, with Padó's figures on the same data flattened beside it. */
export type AcceptanceRow = AcceptanceDto &
  Record<'padoShare' | 'padoObservedError' | 'padoErrorUpper' | 'padoEffortSaved', AcceptanceDto['pado']['acceptedShare']> & {
    plan: HybridPlanRow;
  };
export type AcceptanceStratumRow = AcceptanceStratumDto & { plan: HybridPlanRow; epsilon: number; delta: number };

/** What the dashboard offers for a kind's plan: its catalog entries, its words, its orders of a queue. */
export type HybridChoicesDto = {
  /** The selector's label and the entries a plan can be on; `hasLenient`: the entry can be folded leniently. */
  entryLabel: string;
  entries: { id: string; name: string; hasLenient: boolean }[];
  /** What the judge labels: the plural, and the same counted ("3 item(s)"). */
  noun: string;
  counted: string;
  /** What a group with a plan of its own is (a rubric study's `tutor`); null: the kind has none. */
  group: string | null;
  /** The queue may also draw in active order (`openActiveQueue` reads this kind's studies). */
  activeOrder: boolean;
  /** Where the active order's uncertainty may come from on this kind, the default first (none without an active order). */
  activeSources: UncertaintySourceDto[];
};

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
  {
    id: 'extra_reviews_expected',
    csv: 'extra_reviews_expected',
    header: 'Extra reviews',
    value: 'count',
    get: (p) => p.extraReviewsExpected,
  },
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
  {
    id: 'decision',
    csv: 'decision',
    header: 'Decision',
    value: 'text',
    get: (c) => c.decision,
    display: (c) => (c.decision === 'accept' ? 'Accept — keep the judge’s labels' : 'Review — send to people'),
  },
];

/** Error-bounded acceptance beside Padó's plan: what the guarantee accepts, and what Padó's plan accepts unguaranteed. */
export const ACCEPTANCE_COLUMNS: readonly ColumnSpec<AcceptanceRow>[] = [
  { id: 'epsilon', csv: 'epsilon', header: 'ε', value: 'text', get: (a) => a.epsilon },
  { id: 'delta', csv: 'delta', header: 'δ', value: 'text', get: (a) => a.delta },
  { id: 'stratified_by', csv: 'stratified_by', header: 'Strata', value: 'text', get: (a) => a.stratifiedBy, csvOnly: true },
  { id: 'pool', csv: 'pool', header: 'Judged items', value: 'count', get: (a) => a.pool },
  { id: 'calibration', csv: 'calibration', header: 'With ground truth', value: 'count', get: (a) => a.calibration },
  { id: 'accepted_labels', csv: 'accepted_labels', header: 'Accepted classes', value: 'text', get: (a) => list(a.acceptedLabels) },
  stat('acceptedShare', 'accepted_share', 'Accepted share', 'percent', { interval: false }),
  stat('errorBound', 'error_bound', 'Guaranteed error below', 'percent', { interval: false }),
  stat('errorUpperAccepted', 'error_upper_accepted', 'Clopper–Pearson bound', 'percent', { interval: false }),
  {
    id: 'judge_labelled_items',
    csv: 'judge_labelled_items',
    header: 'Judge labels kept',
    value: 'count',
    get: (a) => a.judgeLabelledItems,
  },
  { id: 'human_labels', csv: 'human_labels', header: 'Human labels', value: 'count', get: (a) => a.humanLabels },
  stat('effortSaved', 'effort_saved', 'Work saved', 'percent', { interval: false }),
  stat('finalErrorRateBound', 'final_error_rate_bound', 'Final error bound', 'percent', { interval: false }),
  { id: 'pado_class', csv: 'pado_class', header: "Padó's class", value: 'text', get: (a) => a.pado.acceptedClass },
  stat('padoShare', 'pado_share', "Padó's share", 'percent', { interval: false }),
  stat('padoObservedError', 'pado_observed_error', "Padó's observed error", 'percent', { interval: false }),
  stat('padoErrorUpper', 'pado_error_upper', "Padó's error bound", 'percent', { interval: false }),
  stat('padoEffortSaved', 'pado_effort_saved', "Padó's work saved", 'percent', { interval: false }),
];

/** One stratum (predicted class) of the acceptance: its counts, exact test and decision. */
export const STRATUM_COLUMNS: readonly ColumnSpec<AcceptanceStratumRow>[] = [
  { id: 'label', csv: 'label', header: 'Predicted label', value: 'text', get: (s) => s.label },
  { id: 'n', csv: 'n', header: 'With ground truth', value: 'count', get: (s) => s.n },
  { id: 'errors', csv: 'errors', header: 'Errors', value: 'count', get: (s) => s.errors },
  { id: 'pool', csv: 'pool', header: 'Judged', value: 'count', get: (s) => s.pool },
  stat('errorRate', 'error_rate', 'Error rate', 'percent', { interval: false }),
  { id: 'p_value', csv: 'p_value', header: 'p (error ≥ ε)', value: 'text', get: (s) => s.pValue, display: (s) => s.pValue.toPrecision(3) },
  stat('pAdjusted', 'p_adjusted', 'Holm p', 'p-value', { interval: false }),
  stat('errorUpper', 'error_upper', 'Bound at 1 − δ', 'percent', { interval: false }),
  stat('errorUpperSimultaneous', 'error_upper_simultaneous', 'Simultaneous bound', 'percent', { interval: false }),
  {
    id: 'accepted',
    csv: 'accepted',
    header: 'Accepted',
    value: 'text',
    get: (s) => s.accepted,
    display: (s) => (s.accepted ? 'yes' : 'no'),
  },
];

const onPlan = (c: PlainColumnSpec<HybridPlanRow>): PlainColumnSpec<HybridClassRow> => ({
  ...c,
  get: (k) => c.get(k.plan),
  display: c.display && ((k) => c.display!(k.plan)),
  note: undefined,
});

const aboutPlan = <R extends { plan: HybridPlanRow }>(c: PlainColumnSpec<HybridPlanRow>): PlainColumnSpec<R> => ({
  ...c,
  get: (k) => c.get(k.plan),
  display: c.display && ((k) => c.display!(k.plan)),
  note: undefined,
});

export const acceptanceRow = (p: HybridPlanRow): AcceptanceRow => ({
  ...p.acceptance,
  padoShare: p.acceptance.pado.acceptedShare,
  padoObservedError: p.acceptance.pado.observedError,
  padoErrorUpper: p.acceptance.pado.errorUpper,
  padoEffortSaved: p.acceptance.pado.effortSaved,
  plan: p,
});

export function hybridTables<D>(
  scope: HybridScope<D>,
): Record<
  string,
  TableSpec<D, HybridPlanRow> | TableSpec<D, HybridClassRow> | TableSpec<D, AcceptanceRow> | TableSpec<D, AcceptanceStratumRow>
> {
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
    rows: (r) => scope.plans(r).flatMap((p) => p.classes.map((c) => ({ ...c, plan: p, intervals: { classwiseAccuracy: c.interval } }))),
    columns: [...scope.classKeys.map(onPlan), ...CLASS_COLUMNS],
    rowKey: (c) => `${JSON.stringify(c.plan.about)}:${c.label}`,
  };
  const acceptance: TableSpec<D, AcceptanceRow> = {
    id: 'acceptance',
    title: 'Accepted with a guarantee',
    rows: (r) => scope.plans(r).map(acceptanceRow),
    columns: [...scope.classKeys.map((c) => aboutPlan<AcceptanceRow>(c)), ...ACCEPTANCE_COLUMNS],
    rowKey: (a) => JSON.stringify(a.plan.about),
  };
  const strata: TableSpec<D, AcceptanceStratumRow> = {
    id: 'strata',
    title: 'Strata of the guarantee',
    rows: (r) =>
      scope
        .plans(r)
        .flatMap((p) => p.acceptance.strata.map((s) => ({ ...s, plan: p, epsilon: p.acceptance.epsilon, delta: p.acceptance.delta }))),
    columns: [...scope.classKeys.map((c) => aboutPlan<AcceptanceStratumRow>(c)), ...STRATUM_COLUMNS],
    rowKey: (s) => `${JSON.stringify(s.plan.about)}:${s.label}`,
  };
  return { [scope.planTable]: plan, classes, acceptance, strata };
}
