/**
 * Confidence intervals for a proportion x/n (alignment rate, two-rater percent agreement,
 * win rate with ties excluded or as non-wins, precision/recall of one class), and the
 * special functions they need (normal CDF and quantile, regularised incomplete beta).
 */
import { type Interval, interval, undefinedInterval } from './types';

const SQRT2 = Math.SQRT2;
const SQRT_PI = Math.sqrt(Math.PI);

/** erfc(x) for x ≥ 0: positive-term series of erf below 3, Lentz continued fraction above. */
function erfcNonNegative(x: number): number {
  if (x < 3) {
    // erf(x) = 2/√π · e^{−x²} · Σ_n 2^n x^{2n+1} / (1·3·…·(2n+1)); every term is positive.
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 500; n++) {
      term *= (2 * x2) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - (2 / SQRT_PI) * Math.exp(-x2) * sum;
  }
  // erfc(x) = e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), evaluated with Lentz's method.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (SQRT_PI * f);
}

/**
 * Standard normal cumulative distribution function.
 * Formula: Φ(x) = ½ erfc(−x/√2).
 * @see Abramowitz & Stegun (1964) 7.1.2, 7.1.6 (series) and 7.1.14 (continued fraction).
 */
export function normalCdf(x: number): number {
  const t = x / SQRT2;
  return t >= 0 ? 1 - 0.5 * erfcNonNegative(t) : 0.5 * erfcNonNegative(-t);
}

/**
 * Standard normal quantile Φ⁻¹(p), refined by Newton steps on `normalCdf` to full precision.
 * Formula: x_{t+1} = x_t − (Φ(x_t) − p)/φ(x_t), started from a logistic-scale guess.
 * @see Abramowitz & Stegun (1964) 26.2.23 (starting approximation).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  // A&S 26.2.23 rational approximation for the upper tail, |error| < 4.5e-4.
  const pp = p < 0.5 ? p : 1 - p;
  const t = Math.sqrt(-2 * Math.log(pp));
  let x = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
  if (p < 0.5) x = -x;
  for (let it = 0; it < 8; it++) {
    const err = normalCdf(x) - p;
    const dens = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
    const step = err / dens;
    x -= step;
    if (Math.abs(step) < 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}

/**
 * Normal quantile z for a two-sided interval at `level` (e.g. 0.95 → 1.959963984540054).
 * Formula: z = Φ⁻¹(1 − (1 − level)/2).
 * @see Abramowitz & Stegun (1964) 26.2.
 */
export function zForLevel(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${level}`);
  return normalQuantile(1 - (1 - level) / 2);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/**
 * ln Γ(x) for x > 0 (Lanczos approximation, g = 7, nine terms).
 * Formula: Γ(x+1) = √(2π) (x+g+½)^{x+½} e^{−(x+g+½)} A_g(x).
 * @see Lanczos (1964) SIAM J. Numer. Anal. B 1; coefficients after Godfrey (2001).
 */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
  let h = d;
  for (let m = 1; m < 10000; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    h *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/**
 * Regularised incomplete beta function I_x(a, b) (the Beta(a, b) CDF at x).
 * Formula: I_x(a,b) = x^a (1−x)^b / (a B(a,b)) · CF(x; a, b), with I_x(a,b) = 1 − I_{1−x}(b,a).
 * @see Abramowitz & Stegun (1964) 26.5.8 (continued fraction).
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = a * Math.log(x) + b * Math.log1p(-x) - (logGamma(a) + logGamma(b) - logGamma(a + b));
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Quantile of the Beta(a, b) distribution by bisection on `regularizedBeta` (monotone in x).
 * Formula: x such that I_x(a, b) = p.
 * @see Abramowitz & Stegun (1964) 26.5.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let it = 0; it < 200 && hi - lo > 1e-17; it++) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    if (regularizedBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

function checkCounts(successes: number, n: number): void {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n) {
    throw new RangeError(`need integers 0 ≤ successes ≤ n, got ${successes}/${n}`);
  }
}

/** Either a two-sided confidence level or the normal quantile z to use. */
export type LevelOption = { readonly level?: number; readonly z?: number };

function zOf(opts: LevelOption): number {
  return opts.z ?? zForLevel(opts.level ?? 0.95);
}

/**
 * Wilson score interval for a proportion (the default interval for proportions).
 * Formula: centre = (x + z²/2)/(n + z²), half-width = z/(n + z²)·√(x(n−x)/n + z²/4).
 * @see Wilson (1927) JASA 22; statsmodels `proportion_confint(method="wilson")`; R `prop.test(correct=FALSE)`.
 */
export function wilsonInterval(successes: number, n: number, opts: LevelOption = {}): Interval {
  checkCounts(successes, n);
  if (n === 0) return undefinedInterval('no_items');
  const z = zOf(opts);
  const z2 = z * z;
  const centre = (successes + z2 / 2) / (n + z2);
  const half = (z / (n + z2)) * Math.sqrt((successes * (n - successes)) / n + z2 / 4);
  return interval(Math.max(0, centre - half), Math.min(1, centre + half));
}

/**
 * Clopper–Pearson ("exact") interval for a proportion, conservative.
 * Formula: [B⁻¹(α/2; x, n−x+1), B⁻¹(1−α/2; x+1, n−x)], with 0 at x = 0 and 1 at x = n.
 * @see Clopper & Pearson (1934) Biometrika 26; R `binom.test`; statsmodels `proportion_confint(method="beta")`.
 */
export function clopperPearsonInterval(successes: number, n: number, opts: { level?: number } = {}): Interval {
  checkCounts(successes, n);
  if (n === 0) return undefinedInterval('no_items');
  const alpha = 1 - (opts.level ?? 0.95);
  const lower = successes === 0 ? 0 : betaQuantile(alpha / 2, successes, n - successes + 1);
  const upper = successes === n ? 1 : betaQuantile(1 - alpha / 2, successes + 1, n - successes);
  return interval(lower, upper);
}

/**
 * Wald interval clipped to [0, 1] — for comparison only: it collapses at x = 0 and x = n and
 * undercovers for small n (STATS.md §6 "never use Wald for small n").
 * Formula: p̂ ± z √(p̂(1−p̂)/n).
 * @see statsmodels `proportion_confint(method="normal")`.
 */
export function waldInterval(successes: number, n: number, opts: LevelOption = {}): Interval {
  checkCounts(successes, n);
  if (n === 0) return undefinedInterval('no_items');
  const z = zOf(opts);
  const p = successes / n;
  const half = z * Math.sqrt((p * (1 - p)) / n);
  return interval(Math.max(0, p - half), Math.min(1, p + half));
}

/** An interval of a share cut to [0, 1], saying whether either end was cut. */
export type UnitInterval = { lower: number; upper: number; clipped: boolean };

/**
 * The interval of a share (a proportion, a win rate, a PPI++ mean of 0/½/1 outcomes) intersected with [0, 1].
 * A normal interval (PPI++, the people-only and judge-only means) can reach past the bounds at small n; the share
 * itself cannot, so cutting there never drops the true value out of the interval and keeps its coverage.
 * Formula: [max(0, lower), min(1, upper)]. Concord's choice (lib/stats/SPEC.md, decision 0034).
 */
export function clipToUnit(lower: number, upper: number): UnitInterval {
  if (!Number.isFinite(lower) || !Number.isFinite(upper) || lower > upper)
    throw new RangeError(`clipToUnit needs finite lower ≤ upper, got [${lower}, ${upper}]`);
  const lo = Math.min(1, Math.max(0, lower));
  const hi = Math.max(0, Math.min(1, upper));
  return { lower: lo, upper: hi, clipped: lo !== lower || hi !== upper };
}
