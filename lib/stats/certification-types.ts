/**
 * Result shapes and numerical building blocks shared by the judge-certification statistics
 * (rank agreement, PPI, confidence sequence, alt-test, position and length bias;
 * `test/fixtures/stats/STATS-2.md`).
 *
 * They follow the core's convention (`types.ts`): an undefined output is `null` with the reason
 * STATS-2 §1.3 names, never NaN, ±Infinity, 0 or 1. Input errors (arrays of different lengths,
 * undeclared labels, observations out of range) throw instead.
 */
import { normalCdf, regularizedBeta } from './intervals';

/** Why a certification statistic has no value (STATS-2 §1.3). */
export type CertificationReason =
  /** Too few items (n < 2 for a correlation, an annotator below the minimum, a single judge prediction). */
  | 'too_few_items'
  /** One grader gives every model the same score: no ranking to correlate. */
  | 'constant_input'
  /** A t-test with n − 2 = 0 degrees of freedom. */
  | 'df_zero'
  /** Nothing to compute on. */
  | 'no_items'
  /** No human-labelled item (PPI). */
  | 'no_labelled_items'
  /** One human-labelled item: no standard error (PPI). */
  | 'too_few_labelled_items'
  /** No judge-only item (PPI). */
  | 'no_unlabelled_items'
  /** One judge-only item (PPI). */
  | 'too_few_unlabelled_items'
  /** Every judge prediction is equal: λ̂ has a zero denominator (PPI++). */
  | 'constant_predictions'
  /** The running intersection of the confidence sequence is empty: the mean is not constant. */
  | 'empty_running_intersection'
  /** Zero-variance t-test whose mean lies below, above or at the margin (alt-test). */
  | 'zero_variance_below_margin'
  | 'zero_variance_above_margin'
  | 'zero_variance_at_margin'
  /** No annotator had enough items to be tested (alt-test). */
  | 'no_annotator_tested'
  /** No item was judged in both orders (position bias). */
  | 'no_items_in_both_orders'
  /** Every verdict is a tie (position bias). */
  | 'no_decisive_verdicts'
  /** A length-difference bin holds no item. */
  | 'empty_bin'
  /** A length-difference bin holds only ties. */
  | 'no_decisive_items_in_bin'
  /** Every item is a tie (length-bias slope). */
  | 'no_decisive_items'
  /** Every length difference is equal: the slope is not identifiable. */
  | 'constant_predictor'
  /** Every decisive item has the same outcome: the logistic MLE does not exist. */
  | 'all_same_outcome'
  /** (Quasi-)complete separation: the logistic MLE does not exist. */
  | 'separation'
  /** Newton–Raphson did not converge (never expected once the checks above pass). */
  | 'not_converged';

/** A value of type T, or `null` with the reason it is undefined. */
export type Reasoned<T> =
  { readonly value: T; readonly reason?: undefined } | { readonly value: null; readonly reason: CertificationReason };

/** A numeric certification statistic. */
export type CertStat = Reasoned<number>;

/** A two-sided interval, or `null` bounds with the reason it is undefined. */
export type CertInterval =
  | { readonly lower: number; readonly upper: number; readonly reason?: undefined }
  | { readonly lower: null; readonly upper: null; readonly reason: CertificationReason };

/**
 * A defined value. Throws on a non-finite number, which would indicate a bug upstream.
 * Formula: { value: x }.
 * @see STATS-2.md §0 item 1 (null, not NaN).
 */
export function certValue<T>(value: T): Reasoned<T> {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`statistic is not finite: ${value}`);
  return { value };
}

/**
 * An undefined value with its reason.
 * Formula: { value: null, reason }.
 * @see STATS-2.md §1.3.
 */
export function certNull(reason: CertificationReason): { readonly value: null; readonly reason: CertificationReason } {
  return { value: null, reason };
}

/**
 * A defined interval. Throws on a non-finite bound.
 * Formula: { lower, upper }.
 * @see STATS-2.md §0 item 1.
 */
export function certInterval(lower: number, upper: number): CertInterval {
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) throw new Error(`interval bound is not finite: [${lower}, ${upper}]`);
  return { lower, upper };
}

/**
 * An undefined interval with its reason.
 * Formula: { lower: null, upper: null, reason }.
 * @see STATS-2.md §1.3.
 */
export function certNoInterval(reason: CertificationReason): CertInterval {
  return { lower: null, upper: null, reason };
}

/**
 * Estimate ± z·se, or null with the first reason found among the two.
 * Formula: [est − z·se, est + z·se] (not clipped).
 * @see STATS-2.md §3.3 ("Every CI is estimate ± z·se, not clipped").
 */
export function normalInterval(estimate: CertStat, se: CertStat, z: number): CertInterval {
  if (estimate.value === null) return certNoInterval(estimate.reason);
  if (se.value === null) return certNoInterval(se.reason);
  return certInterval(estimate.value - z * se.value, estimate.value + z * se.value);
}

/** z = Φ⁻¹(0.975) as scipy prints it (STATS-2 §1.4: use this constant, not 1.96). */
export const Z_975 = 1.959963984540054;

/**
 * Two-sided normal tail probability of a z statistic.
 * Formula: p = 2·(1 − Φ(|z|)) = erfc(|z|/√2).
 * @see STATS-2.md §1.4; Abramowitz & Stegun (1964) 7.1.
 */
export function twoSidedNormalP(z: number): number {
  return 2 * normalCdf(-Math.abs(z));
}

/**
 * CDF of Student's t with ν degrees of freedom.
 * Formula: x = ν/(ν + t²); F(t) = ½·I_x(ν/2, ½) for t < 0, 1 − ½·I_x(ν/2, ½) otherwise.
 * @see STATS-2.md §1.4; Abramowitz & Stegun (1964) 26.7.1.
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const half = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t < 0 ? half : 1 - half;
}

/** Throws unless the two arrays have the same length (an input error, STATS-2 §1.3). */
export function sameLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>, what: string): void {
  if (a.length !== b.length) throw new RangeError(`${what}: arrays of different lengths (${a.length} and ${b.length})`);
}
