/**
 * Digamma ψ(x) and log-sum-exp, the two numerical building blocks of the STATS-3 EM algorithms
 * (MACE's variational M-step needs ψ; every normalisation of a product of probabilities uses LSE).
 */

/**
 * Digamma ψ(x) for x > 0.
 * Formula: ψ(x) = ψ(x+1) − 1/x until x ≥ 10, then ln x − 1/(2x) − 1/(12x²) + 1/(120x⁴) − 1/(252x⁶)
 * + 1/(240x⁸) − 1/(132x¹⁰) + 691/(32760x¹²) − 1/(12x¹⁴).
 * Stopping at x ≥ 6 or dropping the last two terms leaves ~1e−11 errors, enough to move MACE's
 * log-likelihood past the vectors' tolerance (STATS-3 §1.4).
 * @see Abramowitz & Stegun (1964) 6.3.5 and 6.3.18; STATS-3 §1.4.
 */
export function digamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`digamma needs x > 0, got ${x}`);
  let shift = 0;
  while (x < 10) {
    shift -= 1 / x;
    x += 1;
  }
  const r = 1 / (x * x);
  const series = r * (-1 / 12 + r * (1 / 120 + r * (-1 / 252 + r * (1 / 240 + r * (-1 / 132 + r * (691 / 32760 + r * (-1 / 12)))))));
  return shift + Math.log(x) - 1 / (2 * x) + series;
}

/**
 * ln Σ exp(a_i), stable for very negative terms; terms of −∞ are dropped, and all −∞ gives −∞.
 * Formula: LSE(a) = m + ln Σ exp(a_i − m), m = max a_i.
 * @see STATS-3 §1.4.
 */
export function logSumExp(a: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  if (m === -Infinity) return -Infinity;
  let s = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== -Infinity) s += Math.exp(a[i] - m);
  return m + Math.log(s);
}
