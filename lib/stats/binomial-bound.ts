/**
 * Exact binomial tail and the one-sided Clopper–Pearson upper bound on an error rate: the test behind
 * error-bounded acceptance of a judge's decisions (STATS-3 §1.4, §7.3). "Accept" ⇔ P(Bin(n, ε) ≤ k) ≤ γ
 * ⇔ U_γ(k, n) ≤ ε; the decision is taken on p, U is reported.
 */
import { regularizedBeta } from './intervals';

function checkErrorCounts(errors: number, n: number): void {
  if (!Number.isInteger(errors) || !Number.isInteger(n) || errors < 0 || errors > n) {
    throw new RangeError(`need integers 0 ≤ errors ≤ n, got ${errors}/${n}`);
  }
}

/**
 * P(Bin(n, p) ≤ k), exact up to rounding.
 * Formula: Σ_{i=0}^{k} C(n,i) pⁱ(1−p)^{n−i} = I_{1−p}(n−k, k+1); 1 when k ≥ n.
 * @see Abramowitz & Stegun (1964) 26.5.24; scipy `binom.cdf`; STATS-3 §1.4.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  checkErrorCounts(k, n);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomial probability must be in [0, 1], got ${p}`);
  if (k >= n) return 1;
  return regularizedBeta(1 - p, n - k, k + 1);
}

/**
 * One-sided Clopper–Pearson upper bound at level 1 − γ for k errors in n: the p with P(Bin(n, p) ≤ k) = γ.
 * Formula: 1 when k = n; 1 − γ^{1/n} when k = 0; otherwise bisection on [k/n, 1] to 1e−15 (the CDF falls
 * monotonically in p); equals Beta⁻¹(1 − γ; k + 1, n − k).
 * @see Clopper & Pearson (1934) Biometrika 26; scipy `beta.ppf`; STATS-3 §1.4.
 */
export function clopperPearsonUpper(k: number, n: number, gamma: number): number {
  checkErrorCounts(k, n);
  if (n === 0) throw new RangeError('a Clopper–Pearson bound needs n ≥ 1');
  if (!(gamma > 0 && gamma < 1)) throw new RangeError(`γ must be in (0, 1), got ${gamma}`);
  if (k === n) return 1;
  if (k === 0) return -Math.expm1(Math.log(gamma) / n);
  let lo = k / n;
  let hi = 1;
  while (hi - lo > 1e-15) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    if (binomialCdf(k, n, mid) > gamma) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

export interface BinomialErrorBound {
  /** P(Bin(n, ε) ≤ k): the p-value of H: error rate ≥ ε. */
  readonly pValue: number;
  /** U_γ(k, n). */
  readonly cpUpper: number;
  /** p ≤ γ: the error rate is certified below ε at level 1 − γ. */
  readonly accept: boolean;
}

/**
 * Whether k errors in n certify an error rate below ε with confidence 1 − γ. With no error this needs
 * n ≥ ⌈ln γ / ln(1 − ε)⌉ (59 for ε = γ = 0.05).
 * Formula: p = P(Bin(n, ε) ≤ k); accept ⇔ p ≤ γ.
 * @see STATS-3 §7.3.
 */
export function binomialErrorBound(errors: number, n: number, epsilon: number, gamma: number): BinomialErrorBound {
  const pValue = binomialCdf(errors, n, epsilon);
  return { pValue, cpUpper: clopperPearsonUpper(errors, n, gamma), accept: pValue <= gamma };
}
