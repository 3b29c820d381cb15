/**
 * Anytime-valid confidence sequence for a mean in [0, 1] (e.g. the judge's alignment with ground
 * truth, 1 per agreeing item): the predictable plug-in empirical-Bernstein CS (PrPl-EB) of
 * Waudby-Smith & Ramdas, Theorem 2, with the running intersection (STATS-2 §4). The user may look
 * after every item and stop at any time; the 1 − α coverage holds simultaneously for all t.
 *
 * Every update is O(1) (`prplEbStep`), so the app can keep the state per judge run and feed it
 * each new ground-truth item.
 */
import { type CertInterval, type CertStat, certInterval, certNoInterval, certNull, certValue } from './certification-types';

export interface PrplEbOptions {
  /** Miscoverage α (default 0.05). */
  readonly alpha?: number;
  /** Truncation c of the bets λ_t (default ½). */
  readonly truncation?: number;
}

/** Running sums after t observations; everything the next step needs. */
export interface PrplEbState {
  readonly alpha: number;
  readonly truncation: number;
  readonly t: number;
  readonly sumX: number;
  /** Σ_{i≤t} (x_i − μ̂_i)². */
  readonly sumSqDev: number;
  /** μ̂_t and σ̂²_t (μ̂₀ = ½, σ̂²₀ = ¼). */
  readonly muHat: number;
  readonly sigma2Hat: number;
  readonly sumLambda: number;
  readonly sumLambdaX: number;
  /** Σ v_i ψ_E(λ_i). */
  readonly sumVPsi: number;
  /** Running intersection max_s lower_raw_s and min_s upper_raw_s (may cross: then empty). */
  readonly lower: number;
  readonly upper: number;
}

/** One time step: the intermediate quantities and the bounds. */
export interface PrplEbStepDetail {
  readonly lambda: number;
  readonly muHat: number;
  readonly sigma2Hat: number;
  readonly center: number;
  readonly margin: number;
  readonly lowerRaw: number;
  readonly upperRaw: number;
  /** The running intersection, or null `empty_running_intersection` once lower > upper. */
  readonly bounds: CertInterval;
}

export interface PrplEbSequence {
  readonly t: number;
  /** Per time t (index t − 1). */
  readonly steps: readonly PrplEbStepDetail[];
  /** The bounds at t = T; null when T = 0 (the trivial [0, 1]) or when the intersection is empty. */
  readonly final: CertInterval;
}

/**
 * The state before any observation.
 * Formula: μ̂₀ = ½, σ̂²₀ = ¼, all sums 0, [L₀, U₀] = [0, 1].
 * @see Waudby-Smith & Ramdas (2024) JRSSB 86(1), arXiv 2010.09686, Theorem 2; STATS-2.md §4.3.
 */
export function prplEbInitial(opts: PrplEbOptions = {}): PrplEbState {
  const alpha = opts.alpha ?? 0.05;
  const truncation = opts.truncation ?? 0.5;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(truncation > 0 && truncation < 1)) throw new RangeError(`truncation must be in (0, 1), got ${truncation}`);
  return {
    alpha,
    truncation,
    t: 0,
    sumX: 0,
    sumSqDev: 0,
    muHat: 0.5,
    sigma2Hat: 0.25,
    sumLambda: 0,
    sumLambdaX: 0,
    sumVPsi: 0,
    lower: 0,
    upper: 1,
  };
}

/**
 * Adds observation x_t ∈ [0, 1] to the PrPl-EB confidence sequence.
 * Formula: λ_t = min(√(2 log(2/α)/(σ̂²_{t−1}·t·log(1+t))), c); v_t = 4(x_t − μ̂_{t−1})²; ψ_E(λ) = (−log(1−λ) − λ)/4;
 * centre = Σλx/Σλ, margin = (log(2/α) + Σvψ_E(λ))/Σλ; bounds clipped to [0, 1], then intersected over time.
 * @see Waudby-Smith & Ramdas (2024) "Estimating means of bounded random variables by betting", JRSSB 86(1), Theorem 2; STATS-2.md §4.3.
 */
export function prplEbStep(state: PrplEbState, x: number): { state: PrplEbState; detail: PrplEbStepDetail } {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`observation must be in [0, 1], got ${x}`);
  const t = state.t + 1;
  const logTerm = Math.log(2 / state.alpha);
  // Predictable: λ_t and v_t use only x_1..x_{t−1}, through σ̂²_{t−1} and μ̂_{t−1}.
  const lambda = Math.min(Math.sqrt((2 * logTerm) / (state.sigma2Hat * t * Math.log1p(t))), state.truncation);
  const v = 4 * (x - state.muHat) ** 2;
  const psi = (-Math.log1p(-lambda) - lambda) / 4;
  const sumX = state.sumX + x;
  const muHat = (0.5 + sumX) / (t + 1);
  const sumSqDev = state.sumSqDev + (x - muHat) ** 2;
  const sigma2Hat = (0.25 + sumSqDev) / (t + 1);
  const sumLambda = state.sumLambda + lambda;
  const sumLambdaX = state.sumLambdaX + lambda * x;
  const sumVPsi = state.sumVPsi + v * psi;
  const center = sumLambdaX / sumLambda;
  const margin = (logTerm + sumVPsi) / sumLambda;
  const lowerRaw = Math.max(0, center - margin);
  const upperRaw = Math.min(1, center + margin);
  const lower = Math.max(state.lower, lowerRaw);
  const upper = Math.min(state.upper, upperRaw);
  const next: PrplEbState = {
    ...state,
    t,
    sumX,
    sumSqDev,
    muHat,
    sigma2Hat,
    sumLambda,
    sumLambdaX,
    sumVPsi,
    lower,
    upper,
  };
  return {
    state: next,
    detail: {
      lambda,
      muHat,
      sigma2Hat,
      center,
      margin,
      lowerRaw,
      upperRaw,
      bounds: currentBounds(next),
    },
  };
}

/**
 * The running-intersection bounds of a state: null `empty_running_intersection` once they cross
 * (strong evidence that the mean changed: judge, prompts or item mix).
 * Formula: [L_t, U_t] = [max_{s≤t} lower_raw_s, min_{s≤t} upper_raw_s] if L_t ≤ U_t.
 * @see STATS-2.md §4.5.
 */
export function currentBounds(state: PrplEbState): CertInterval {
  return state.lower > state.upper ? certNoInterval('empty_running_intersection') : certInterval(state.lower, state.upper);
}

/**
 * The whole PrPl-EB confidence sequence of observations in the order they were collected.
 * Formula: as `prplEbStep`, for t = 1..T.
 * @see Waudby-Smith & Ramdas (2024) JRSSB 86(1), arXiv 2010.09686, Theorem 2; STATS-2.md §4.
 */
export function prplEbConfidenceSequence(x: ArrayLike<number>, opts: PrplEbOptions = {}): PrplEbSequence {
  let state = prplEbInitial(opts);
  const steps: PrplEbStepDetail[] = [];
  for (let i = 0; i < x.length; i++) {
    const r = prplEbStep(state, x[i]);
    state = r.state;
    steps.push(r.detail);
  }
  return { t: state.t, steps, final: state.t === 0 ? certNoInterval('no_items') : currentBounds(state) };
}

export type CertificationDecision = 'certified' | 'refuted' | 'keep_labelling';

export interface Certification {
  /** certified: L_t ≥ target; refuted: U_t < target; otherwise keep labelling. Null when the CS is empty. */
  readonly decision:
    | { readonly value: CertificationDecision; readonly reason?: undefined }
    | { readonly value: null; readonly reason: 'empty_running_intersection' };
  readonly bounds: CertInterval;
  /**
   * Projected number of further items before a decision, 0 once decided. A projection, not a
   * guarantee: it assumes the coming items agree at the current observed rate.
   */
  readonly itemsNeeded: CertStat;
}

/**
 * Certification of a mean against a target (e.g. alignment ≥ 0.90) from the confidence sequence,
 * with a projection of the items still needed. The projection continues the sequence with a
 * deterministic 0/1 stream whose running share stays at the observed mean x̄_t (the
 * lowest-discrepancy path, x_{t+k} = ⌊k·x̄ + ½⌋ − ⌊(k−1)·x̄ + ½⌋), until the bound crosses the
 * target; up to `horizon` items (default 100 000), beyond which it is null (`not_converged`).
 * Formula: certified ⇔ L_t ≥ target; refuted ⇔ U_t < target; else keep labelling.
 * @see Waudby-Smith & Ramdas (2024) JRSSB 86(1) (anytime validity: stopping when a bound crosses is allowed);
 * DESIGN.md "Certifying a judge".
 */
export function certifyMean(state: PrplEbState, target: number, opts: { horizon?: number } = {}): Certification {
  if (!(target >= 0 && target <= 1)) throw new RangeError(`target must be in [0, 1], got ${target}`);
  const now = currentBounds(state);
  if (now.lower === null) {
    return {
      decision: { value: null, reason: 'empty_running_intersection' },
      bounds: now,
      itemsNeeded: certNull('empty_running_intersection'),
    };
  }
  if (now.lower >= target) return { decision: { value: 'certified' }, bounds: now, itemsNeeded: certValue(0) };
  if (now.upper < target) return { decision: { value: 'refuted' }, bounds: now, itemsNeeded: certValue(0) };
  const horizon = opts.horizon ?? 100_000;
  const rate = state.t === 0 ? 0.5 : state.sumX / state.t;
  let s = state;
  for (let k = 1; k <= horizon; k++) {
    const x = Math.floor(k * rate + 0.5) - Math.floor((k - 1) * rate + 0.5);
    s = prplEbStep(s, x).state;
    if (s.lower > s.upper) break;
    if (s.lower >= target || s.upper < target) return { decision: { value: 'keep_labelling' }, bounds: now, itemsNeeded: certValue(k) };
  }
  return { decision: { value: 'keep_labelling' }, bounds: now, itemsNeeded: certNull('not_converged') };
}
