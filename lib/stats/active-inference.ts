/**
 * Active statistical inference for a mean (STATS-3 part E): the items where the judge is unsure are
 * sent to people with a higher probability, and inverse-probability weighting keeps the estimate of
 * the mean human label unbiased, the judge's prediction filling in the rest. Follows the authors'
 * batch notebook: population SD (ddof 0), no redistribution of probability clipped at 1.
 */
import { Z_975 } from './certification-types';
import { zForLevel } from './intervals';
import { createRng } from './random';
import { type Maybe, none, some } from './stats3-types';

export interface ActiveMeanInput {
  /** The judge's probability that the label is 1, per item. */
  readonly yhat: readonly number[];
  /** u_i ≥ 0; default min(ŷ_i, 1 − ŷ_i), the authors' choice for a binary label. */
  readonly uncertainty?: readonly number[];
  /** b ∈ (0, 1]: the share of items people are expected to label. */
  readonly budget: number;
  /** τ ∈ [0, 1]: mixes the uncertainty-driven probability with the uniform b; τ·b is the floor. */
  readonly tau: number;
  /** 1 − the interval's coverage (default 0.05). */
  readonly alpha?: number;
  /** ξ_i ∈ {0, 1}: the items labelled under the active design, drawn before any label is seen. */
  readonly xiActive: readonly number[];
  /** ξ_i ∈ {0, 1}: the items labelled under the uniform design (π = b). */
  readonly xiUniform: readonly number[];
  /** The human label (0/1 or a share in [0, 1]) where some design labelled the item, else null. */
  readonly y: ReadonlyArray<number | null>;
  /**
   * π_i as the draw used them, when they were stored rather than recomputed (e.g. π = 1 for items labelled
   * before the draw); `uncertainty` and τ are then not used.
   */
  readonly pi?: readonly number[];
}

export interface ActiveEstimate {
  readonly estimate: Maybe<number>;
  readonly se: Maybe<number>;
  /** estimate ∓ z·se, not clipped to [0, 1]. */
  readonly ci: Maybe<[number, number]>;
  readonly labelsUsed: number;
}

export interface ActiveMeanResult {
  /** π_i, the probability each item is sent to people. */
  readonly pi: number[];
  /** Σ π_i; below b·n when probabilities clip at 1. */
  readonly expectedLabels: number;
  readonly z: number;
  readonly active: ActiveEstimate;
  /** The same estimator with π = b: the baseline active labelling must beat. */
  readonly uniform: ActiveEstimate;
  /** Horvitz–Thompson mean of the uniform design's labels, without the judge. */
  readonly classical: ActiveEstimate;
}

/** The authors' uncertainty of a binary prediction. */
export function binaryUncertainty(yhat: readonly number[]): number[] {
  return yhat.map((p) => Math.min(p, 1 - p));
}

/**
 * Labelling probabilities under a budget.
 * Formula: ū = mean(u), η = b/ū, π_i = min(1, max(0, (1−τ)·η·u_i + τ·b)); π_i = b when ū = 0 (the
 * authors' code gives NaN there). Before clipping mean(π) = b.
 * @see Zrnic & Candès (2024) ICML; tijana-zrnic/active-inference@0f99f7e; STATS-3 §6.3 step 1.
 */
export function labellingProbabilities(uncertainty: readonly number[], budget: number, tau: number): number[] {
  if (!(budget > 0 && budget <= 1)) throw new RangeError(`budget must be in (0, 1], got ${budget}`);
  if (!(tau >= 0 && tau <= 1)) throw new RangeError(`τ must be in [0, 1], got ${tau}`);
  uncertainty.forEach((u, i) => {
    if (!(u >= 0)) throw new RangeError(`item ${i}: uncertainty ${u} is negative`);
  });
  const uBar = uncertainty.reduce((a, b) => a + b, 0) / uncertainty.length;
  if (uBar === 0) return uncertainty.map(() => budget);
  const eta = budget / uBar;
  return uncertainty.map((u) => Math.min(1, Math.max(0, (1 - tau) * eta * u + tau * budget)));
}

/**
 * The design's draw: ξ_i ~ Bernoulli(π_i), independently, from a seeded xoshiro128** stream, so the same seed
 * gives the same items. Draw it once, before any label is seen, and ask people for exactly the items with
 * ξ_i = 1; choosing the items after seeing labels would void the unbiasedness (STATS-3 §6.3 step 2).
 * Formula: ξ_i = [U_i < π_i], U_i uniform on [0, 1) in item order.
 * @see Zrnic & Candès (2024) §2; Blackman & Vigna (2018) xoshiro128**.
 */
export function drawLabelledItems(pi: readonly number[], seed: number): number[] {
  const rng = createRng(seed);
  return pi.map((p, i) => {
    if (!(p > 0 && p <= 1)) throw new RangeError(`item ${i}: labelling probability ${p} is not in (0, 1]`);
    return rng.nextFloat() < p ? 1 : 0;
  });
}

/** Mean, population-SD standard error and normal interval of the terms Δ_i (STATS-3 §6.3 steps 3 and 7). */
function estimateOf(delta: readonly number[], z: number, labelsUsed: number): ActiveEstimate {
  const n = delta.length;
  if (n === 0) return { estimate: none('no_items'), se: none('no_items'), ci: none('no_items'), labelsUsed };
  const mean = delta.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { estimate: some(mean), se: none('too_few_items'), ci: none('too_few_items'), labelsUsed };
  const se = Math.sqrt(delta.reduce((a, d) => a + (d - mean) ** 2, 0) / n) / Math.sqrt(n);
  return { estimate: some(mean), se: some(se), ci: some([mean - z * se, mean + z * se]), labelsUsed };
}

function labelAt(y: ReadonlyArray<number | null>, i: number): number {
  const v = y[i];
  if (v === null || !(v >= 0 && v <= 1)) throw new RangeError(`item ${i} is labelled but its label is ${String(v)}`);
  return v;
}

/**
 * The active, uniform and classical estimates of the mean human label.
 * Formula: Δ_i = ŷ_i + (y_i − ŷ_i)·ξ_i/π_i (active; uniform with π_i = b and ξ^unif); Δ_i = y_i·ξ^unif_i/b
 * (classical); θ̂ = mean(Δ), se = sd₀(Δ)/√n, CI = θ̂ ∓ z·se.
 * @see Zrnic & Candès (2024) "Active Statistical Inference", ICML, arXiv 2403.03208; STATS-3 §6.
 */
export function activeMean(input: ActiveMeanInput): ActiveMeanResult {
  const { yhat, budget, tau, xiActive, xiUniform, y } = input;
  const n = yhat.length;
  for (const [v, what] of [
    [xiActive, 'xi_active'],
    [xiUniform, 'xi_uniform'],
    [y, 'y'],
  ] as const) {
    if (v.length !== n) throw new RangeError(`${what} has ${v.length} entries for ${n} items`);
  }
  yhat.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`item ${i}: ŷ = ${p} is outside [0, 1]`);
  });
  const alpha = input.alpha ?? 0.05;
  // The vectors and STATS-2 use scipy's printed constant for 95 %; any other level is computed.
  const z = alpha === 0.05 ? Z_975 : zForLevel(1 - alpha);
  const uncertainty = input.uncertainty ?? binaryUncertainty(yhat);
  if (uncertainty.length !== n) throw new RangeError(`uncertainty has ${uncertainty.length} entries for ${n} items`);
  const pi = input.pi ? [...input.pi] : labellingProbabilities(uncertainty, budget, tau);
  if (pi.length !== n) throw new RangeError(`pi has ${pi.length} entries for ${n} items`);
  pi.forEach((p, i) => {
    if (!(p > 0 && p <= 1)) throw new RangeError(`item ${i}: labelling probability ${p} (use τ > 0 for a floor)`);
  });
  const count = (xi: readonly number[]) => xi.reduce((a, b) => a + b, 0);
  const ipw = (xi: readonly number[], prob: (i: number) => number) =>
    yhat.map((p, i) => (xi[i] === 1 ? p + (labelAt(y, i) - p) / prob(i) : p));
  return {
    pi,
    expectedLabels: pi.reduce((a, b) => a + b, 0),
    z,
    active: estimateOf(
      ipw(xiActive, (i) => pi[i]),
      z,
      count(xiActive),
    ),
    uniform: estimateOf(
      ipw(xiUniform, () => budget),
      z,
      count(xiUniform),
    ),
    classical: estimateOf(
      yhat.map((_, i) => (xiUniform[i] === 1 ? labelAt(y, i) / budget : 0)),
      z,
      count(xiUniform),
    ),
  };
}

export interface TauTuningResult {
  /** The first τ of the grid with the smallest objective. */
  readonly tau: number;
  readonly objectiveAtTau: number;
  /** V(τ) at every grid point. */
  readonly objective: number[];
  readonly grid: number[];
}

/**
 * The authors' choice of τ on a separate labelled tuning set.
 * Formula: V(τ) = mean((y^t − ŷ^t)²/π^τ) on τ ∈ linspace(0.01, 0.99, 100), π^τ as in
 * `labellingProbabilities` with u^t = min(ŷ^t, 1 − ŷ^t); the first τ with the smallest V (the loop updates
 * only on a strictly smaller value).
 * @see tijana-zrnic/active-inference@0f99f7e (tuning cell); STATS-3 §6.3 step 6.
 */
export function tuneTau(
  yhatTuning: readonly number[],
  yTuning: readonly number[],
  budget: number,
  grid: { start: number; stop: number; num: number } = { start: 0.01, stop: 0.99, num: 100 },
): TauTuningResult {
  if (yhatTuning.length !== yTuning.length || yTuning.length === 0) throw new RangeError('tuning set needs matching, non-empty ŷ and y');
  if (!(Number.isInteger(grid.num) && grid.num >= 1)) throw new RangeError(`the τ grid needs a positive number of points, got ${grid.num}`);
  // numpy.linspace: start + i·step, the last point exactly `stop`; a single point is `start`.
  const step = grid.num > 1 ? (grid.stop - grid.start) / (grid.num - 1) : 0;
  const taus = Array.from({ length: grid.num }, (_, i) => (i === grid.num - 1 && grid.num > 1 ? grid.stop : i * step + grid.start));
  const u = binaryUncertainty(yhatTuning);
  const sq = yTuning.map((v, i) => (v - yhatTuning[i]) ** 2);
  const objective = taus.map((tau) => {
    const pi = labellingProbabilities(u, budget, tau);
    return sq.reduce((a, s, i) => a + s / pi[i], 0) / sq.length;
  });
  let best = 0;
  for (let k = 1; k < objective.length; k++) if (objective[k] < objective[best]) best = k;
  return { tau: taus[best], objectiveAtTau: objective[best], objective, grid: taus };
}
