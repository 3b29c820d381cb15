/**
 * Judge-vs-human classification metrics on rubric labels (e.g. Yes / To some extent / No) from a
 * confusion matrix with rows = human (gold) and columns = judge, in the declared label order:
 * precision, recall and F1 per class, macro averages, accuracy, class-wise accuracy, and the
 * "lenient" variant with classes merged (BEA 2025: Yes + To some extent).
 */
import { cohenKappa } from './agreement';
import { tableSize } from './encode';
import { type Agreement, type CountTable, type MacroMean, type Stat, defined, macroMean, ratio, undefinedStat } from './types';

/**
 * How a 0/0 per-class value is reported. `exclude` (default): `null` with a reason, and left
 * out of macro averages. `zero`: 0 and kept in the averages (scikit-learn with `labels=` and
 * `zero_division=0`/"warn").
 */
export type ZeroDivision = 'exclude' | 'zero';

export interface ClassMetrics {
  readonly label: string;
  /** TP / predicted; `empty_class` when the judge never predicted the class. */
  readonly precision: Stat;
  /** TP / support; `empty_class` when the class never occurs in the gold labels. */
  readonly recall: Stat;
  /** 2TP / (predicted + support); `absent_class` when the class occurs in neither. */
  readonly f1: Stat;
  readonly support: number;
  readonly predicted: number;
}

export interface ClassificationReport {
  readonly labels: readonly string[];
  readonly confusion: number[][];
  readonly perClass: readonly ClassMetrics[];
  readonly macroPrecision: MacroMean;
  readonly macroRecall: MacroMean;
  readonly macroF1: MacroMean;
  /** Support-weighted mean of per-class F1. */
  readonly weightedF1: Stat;
  readonly accuracy: Stat;
  /** Cohen's κ of judge vs human on the same table. */
  readonly kappa: Agreement;
  readonly zeroDivision: ZeroDivision;
}

function copyTable(t: CountTable): number[][] {
  return t.map((row) => Array.from(row));
}

function checkLabels(q: number, labels: readonly string[]): void {
  if (labels.length !== q) throw new Error(`confusion matrix is ${q}×${q} but ${labels.length} labels were declared`);
}

/**
 * Precision, recall, F1 per class, macro-P/R/F1 (unweighted means of the per-class values, not
 * the F1 of macro-P and macro-R), support-weighted F1, accuracy and Cohen's κ.
 * Formula: P_c = TP_c/Σ_h C_hc, R_c = TP_c/Σ_j C_cj, F1_c = 2TP_c/(Σ_h C_hc + Σ_j C_cj), macro-F1 = mean_c F1_c.
 * @see scikit-learn `precision_recall_fscore_support`; BEA 2025 shared task (Kochmar et al., arXiv 2507.10579); STATS.md §2.7.
 */
export function classificationReport(
  confusion: CountTable,
  labels: readonly string[],
  opts: { zeroDivision?: ZeroDivision } = {},
): ClassificationReport {
  const q = tableSize(confusion);
  checkLabels(q, labels);
  const zeroDivision = opts.zeroDivision ?? 'exclude';
  const fix = (s: Stat): Stat => (s.value === null && zeroDivision === 'zero' ? defined(0) : s);
  const perClass: ClassMetrics[] = [];
  let total = 0;
  let correct = 0;
  for (let c = 0; c < q; c++) {
    let support = 0;
    let predicted = 0;
    for (let j = 0; j < q; j++) {
      support += confusion[c][j];
      predicted += confusion[j][c];
    }
    const tp = confusion[c][c];
    total += support;
    correct += tp;
    perClass.push({
      label: labels[c],
      precision: fix(ratio(tp, predicted, 'empty_class')),
      recall: fix(ratio(tp, support, 'empty_class')),
      f1: fix(ratio(2 * tp, predicted + support, 'absent_class')),
      support,
      predicted,
    });
  }
  let weighted = 0;
  for (const m of perClass) if (m.f1.value !== null) weighted += m.support * m.f1.value;
  return {
    labels: [...labels],
    confusion: copyTable(confusion),
    perClass,
    macroPrecision: macroMean(perClass.map((m) => m.precision)),
    macroRecall: macroMean(perClass.map((m) => m.recall)),
    macroF1: macroMean(perClass.map((m) => m.f1)),
    weightedF1: ratio(weighted, total, 'no_items'),
    accuracy: ratio(correct, total, 'no_items'),
    kappa: cohenKappa(confusion),
    zeroDivision,
  };
}

/**
 * Merges classes of a confusion matrix (e.g. `{ 'To some extent': 'Yes' }` for the BEA 2025
 * lenient setting). The merged label set keeps the declared order of first appearance.
 * Formula: C'_{g(h) g(j)} = Σ C_hj, g = mapping (identity where unmapped).
 * @see BEA 2025 shared task "lenient" evaluation (Kochmar et al., arXiv 2507.10579).
 */
export function mergeLabels(
  confusion: CountTable,
  labels: readonly string[],
  mapping: Readonly<Record<string, string>>,
): { confusion: number[][]; labels: string[] } {
  const q = tableSize(confusion);
  checkLabels(q, labels);
  const merged: string[] = [];
  const target = labels.map((l) => {
    const t = Object.prototype.hasOwnProperty.call(mapping, l) ? mapping[l] : l;
    let idx = merged.indexOf(t);
    if (idx < 0) idx = merged.push(t) - 1;
    return idx;
  });
  const out = merged.map(() => merged.map(() => 0));
  for (let h = 0; h < q; h++) for (let j = 0; j < q; j++) out[target[h]][target[j]] += confusion[h][j];
  return { confusion: out, labels: merged };
}

/**
 * Lenient classification report: classes merged by `mapping`, then `classificationReport`.
 * Formula: report(merge(C, mapping)).
 * @see BEA 2025 shared task `*_lenient-F1`, `*_lenient-acc`; STATS.md §2.7.
 */
export function lenientClassificationReport(
  confusion: CountTable,
  labels: readonly string[],
  mapping: Readonly<Record<string, string>>,
  opts: { zeroDivision?: ZeroDivision } = {},
): ClassificationReport {
  const m = mergeLabels(confusion, labels, mapping);
  return classificationReport(m.confusion, m.labels, opts);
}

export interface ClassAccuracy {
  readonly label: string;
  /** Judge predictions of this class that match the human label. */
  readonly correct: number;
  /** All judge predictions of this class. */
  readonly predicted: number;
  /** correct / predicted; `empty_class` when never predicted. */
  readonly accuracy: Stat;
}

/**
 * Class-wise accuracy of the judge: of all items the judge put in class c, the share the humans
 * also put in c (= per-class precision). Basis of the hybrid review plan.
 * Formula: acc_c = C_cc / Σ_h C_hc.
 * @see Padó (2025) "Hybrid Evaluation of Tutor Dialogues"; STATS.md §2.7–2.8.
 */
export function classwiseAccuracy(confusion: CountTable, labels: readonly string[]): ClassAccuracy[] {
  const q = tableSize(confusion);
  checkLabels(q, labels);
  const out: ClassAccuracy[] = [];
  for (let c = 0; c < q; c++) {
    let predicted = 0;
    for (let h = 0; h < q; h++) predicted += confusion[h][c];
    const correct = confusion[c][c];
    out.push({ label: labels[c], correct, predicted, accuracy: ratio(correct, predicted, 'empty_class') });
  }
  return out;
}

/**
 * Exact-match accuracy of a confusion matrix.
 * Formula: acc = Σ_c C_cc / Σ_hj C_hj.
 * @see scikit-learn `accuracy_score`.
 */
export function accuracy(confusion: CountTable): Stat {
  const q = tableSize(confusion);
  let total = 0;
  let correct = 0;
  for (let h = 0; h < q; h++) {
    for (let j = 0; j < q; j++) total += confusion[h][j];
    correct += confusion[h][h];
  }
  return total === 0 ? undefinedStat('no_items') : defined(correct / total);
}
