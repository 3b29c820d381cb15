/**
 * How well a grader's rubric labels align with gold labels on one dimension, and the share
 * of desired labels that MRBench-style leaderboards report.
 *
 * Inputs are labels with the dimension's declared, ordered label set (worst → best), so a
 * label no one used still has its row and column. Pairs missing either label are skipped and
 * counted. Metrics come from the existing confusion-matrix functions: accuracy (KMP-Bench's
 * alignment rate), macro-F1, class-wise accuracy (Padó 2025), Cohen's κ.
 */
import { cohenKappa } from './agreement';
import { classificationReport, classwiseAccuracy, mergeLabels, type ZeroDivision } from './classification';
import { tableFromLabels } from './encode';
import { type Agreement, type MacroMean, type Stat, ratio } from './types';

/** A rubric dimension as the statistics need it. */
export interface RubricScale {
  /** Ordered worst → best. */
  readonly labels: readonly string[];
  /** Optional folding into a coarser set (e.g. `{ 'To some extent': 'Yes' }`). */
  readonly lenient?: Readonly<Record<string, string>>;
}

export interface ClasswiseRow {
  readonly label: string;
  /** How often the grader gave this label. */
  readonly predicted: number;
  /** How many of those the gold labels confirm. */
  readonly correct: number;
  /** correct / predicted: the precision of this predicted label (Padó's class-wise accuracy). */
  readonly accuracy: Stat;
  /** How often the gold labels hold this label. */
  readonly support: number;
  /** correct / support. */
  readonly recall: Stat;
}

export interface AlignmentSummary {
  readonly labels: readonly string[];
  /** Pairs with both labels. */
  readonly n: number;
  /** Pairs where the grader's label equals gold. */
  readonly agree: number;
  /** agree / n. */
  readonly alignmentRate: Stat;
  readonly macroF1: MacroMean;
  readonly classwise: readonly ClasswiseRow[];
  readonly cohenKappa: Agreement;
  /** Rows = gold, columns = grader, both in `labels` order. */
  readonly confusion: number[][];
}

export interface RubricAlignment extends AlignmentSummary {
  /** Pairs left out because gold or the grader gave no label. */
  readonly skipped: number;
  /** The same summary with labels folded by the dimension's lenient map; `null` without one. */
  readonly lenient: AlignmentSummary | null;
}

/**
 * The alignment summary of a confusion matrix (rows gold, columns grader) over `labels`.
 * Formula: rate = Σ_c C_cc / n; acc_c = C_cc / Σ_h C_hc; recall_c = C_cc / Σ_j C_cj;
 * macro-F1 = mean_c 2C_cc / (Σ_h C_hc + Σ_j C_cj); κ = (p_o − p_e) / (1 − p_e).
 * @see Padó (2025) "Hybrid Evaluation of Tutor Dialogues"; Kochmar et al. (BEA 2025) macro-F1; STATS.md §2.7.
 */
export function alignmentFromConfusion(
  confusion: number[][],
  labels: readonly string[],
  opts: { zeroDivision?: ZeroDivision } = {},
): AlignmentSummary {
  const report = classificationReport(confusion, labels, opts);
  const classes = classwiseAccuracy(confusion, labels);
  let n = 0;
  let agree = 0;
  confusion.forEach((row, h) => {
    for (const c of row) n += c;
    agree += row[h];
  });
  return {
    labels: [...labels],
    n,
    agree,
    alignmentRate: ratio(agree, n, 'no_items'),
    macroF1: report.macroF1,
    classwise: classes.map((c, k) => ({
      label: c.label,
      predicted: c.predicted,
      correct: c.correct,
      accuracy: c.accuracy,
      support: report.perClass[k].support,
      recall: report.perClass[k].recall,
    })),
    cohenKappa: cohenKappa(confusion),
    confusion: confusion.map((r) => [...r]),
  };
}

/**
 * Gold vs grader on one dimension: `gold[i]` and `predicted[i]` label the same item (`null`
 * where missing). Throws on a label outside the declared set.
 * Formula: C_hj = #{i : gold_i = h, pred_i = j}; summary(C); lenient: summary(merge(C, lenient)).
 * @see KMP-Bench alignment rate; Padó (2025) class-wise accuracy and lenient "To some extent" = "Yes".
 */
export function rubricAlignment(
  gold: ReadonlyArray<string | null>,
  predicted: ReadonlyArray<string | null>,
  scale: RubricScale,
  opts: { zeroDivision?: ZeroDivision } = {},
): RubricAlignment {
  if (gold.length !== predicted.length) throw new Error(`gold and predicted differ in length: ${gold.length} vs ${predicted.length}`);
  const confusion = tableFromLabels(gold, predicted, scale.labels);
  const summary = alignmentFromConfusion(confusion, scale.labels, opts);
  let lenient: AlignmentSummary | null = null;
  if (scale.lenient && Object.keys(scale.lenient).length > 0) {
    const merged = mergeLabels(confusion, scale.labels, scale.lenient);
    lenient = alignmentFromConfusion(merged.confusion, merged.labels, opts);
  }
  return { ...summary, skipped: gold.length - summary.n, lenient };
}

export interface DesiredShare {
  /** Labels present (missing ones are left out). */
  readonly n: number;
  /** Labels equal to the desired label (after lenient folding when a map is given). */
  readonly desired: number;
  readonly share: Stat;
}

function fold(label: string, lenient?: Readonly<Record<string, string>>): string {
  return lenient && Object.prototype.hasOwnProperty.call(lenient, label) ? lenient[label] : label;
}

/**
 * Share of desired labels (MRBench's per-tutor score on a dimension); with `lenient`, labels
 * are folded first, so "To some extent" counts as "Yes" under `{ 'To some extent': 'Yes' }`.
 * Formula: share = #{i : fold(l_i) = desired} / #{i : l_i present}.
 * @see Maurya et al. (NAACL 2025) MRBench results tables; DESIGN "Rubric dimensions".
 */
export function desiredShare(
  labels: ReadonlyArray<string | null>,
  desired: string,
  opts: { lenient?: Readonly<Record<string, string>> } = {},
): DesiredShare {
  let n = 0;
  let hits = 0;
  for (const l of labels) {
    if (l === null) continue;
    n++;
    if (fold(l, opts.lenient) === desired) hits++;
  }
  return { n, desired: hits, share: ratio(hits, n, 'no_items') };
}

/**
 * `desiredShare` per group (e.g. per tutor model): `groups[i]` is the group of `labels[i]`.
 * Groups come back in order of first appearance.
 * Formula: share_g = #{i ∈ g : fold(l_i) = desired} / #{i ∈ g : l_i present}.
 * @see desiredShare.
 */
export function desiredShareBy(
  groups: readonly string[],
  labels: ReadonlyArray<string | null>,
  desired: string,
  opts: { lenient?: Readonly<Record<string, string>> } = {},
): Map<string, DesiredShare> {
  if (groups.length !== labels.length) throw new Error(`groups and labels differ in length: ${groups.length} vs ${labels.length}`);
  const byGroup = new Map<string, (string | null)[]>();
  groups.forEach((g, i) => {
    const list = byGroup.get(g) ?? [];
    list.push(labels[i]);
    byGroup.set(g, list);
  });
  return new Map([...byGroup].map(([g, ls]) => [g, desiredShare(ls, desired, opts)]));
}
