/**
 * Result shape shared by the STATS-3 statistics (Dawid–Skene, MACE, annotator quality, calibration,
 * active inference, error-bounded acceptance; `test/fixtures/stats/STATS-3.md`).
 *
 * Same convention as the rest of the core: an undefined output is `null` with the reason STATS-3 §1.3
 * names, never NaN. Input errors (a label outside the declared set, an item with no label, a
 * confidence outside [0, 1], π = 0, errors > n) throw, because they are a bug in the caller.
 */

/** Why a STATS-3 statistic has no value (STATS-3 §1.3). */
export type Stats3Reason =
  /** Dawid–Skene: no item has mass on this true class for this annotator, so the confusion row is 0/0. */
  | 'no_mass_for_class'
  /** MACE: a declared annotator gave no label, so it takes no part in the fit. */
  | 'no_labels'
  /** Annotator quality: the annotator rated no gold item. */
  | 'no_gold_items'
  /** Annotator quality: every rated item had no other rater or a tied plurality among the others. */
  | 'no_items_with_majority'
  /** Annotator quality: no rated item has an adjudicated label. */
  | 'no_adjudicated_items'
  /** κ with chance agreement 1. */
  | 'no_variation'
  /** Calibration: a verbalised confidence gives no distribution over the other labels. */
  | 'no_distribution'
  /** Calibration: a bin holds no item. */
  | 'empty_bin'
  /** Nothing to compute on. */
  | 'no_items'
  /** One item: no standard error. */
  | 'too_few_items'
  /** Acceptance: a stratum with no human-labelled calibration item. */
  | 'no_calibration_items'
  /** Acceptance: the stratum was never reached (Holm or fixed sequence stopped before it). */
  | 'not_tested'
  /** Acceptance: no stratum was accepted, so no error bound is certified. */
  | 'nothing_accepted';

/** A value of type T, or `null` with the reason it is undefined. */
export type Maybe<T> = { readonly value: T; readonly reason?: undefined } | { readonly value: null; readonly reason: Stats3Reason };

/** A defined value; throws on a non-finite number, which would be a bug upstream (STATS-3 §0 item 9). */
export function some<T>(value: T): Maybe<T> {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`statistic is not finite: ${value}`);
  return { value };
}

/** An undefined value with its reason. */
export function none(reason: Stats3Reason): { readonly value: null; readonly reason: Stats3Reason } {
  return { value: null, reason };
}

/** Posteriors within this distance of the maximum count as tied (STATS-3 §0 item 4, `mace_posterior_tie`). */
export const POSTERIOR_TIE_TOLERANCE = 1e-12;

/**
 * Index of the most probable class; classes within 1e−12 of the maximum are tied and the first
 * declared one wins, because sums in another order can differ in the last bit (STATS-3 §0 item 4).
 */
export function argmaxFirstDeclared(p: ArrayLike<number>): number {
  let max = -Infinity;
  for (let k = 0; k < p.length; k++) if (p[k] > max) max = p[k];
  for (let k = 0; k < p.length; k++) if (p[k] >= max - POSTERIOR_TIE_TOLERANCE) return k;
  throw new Error('argmax of an empty distribution');
}

/** Index of `label` in the declared set; a label outside it is an input error (STATS-3 §1.3). */
export function declaredIndex<L>(labels: readonly L[], label: L, where: string): number {
  const k = labels.indexOf(label);
  if (k < 0) throw new RangeError(`${where}: label ${String(label)} is not in the declared set`);
  return k;
}
