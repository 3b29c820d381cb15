/**
 * Length bias of pairwise verdicts (STATS-2 §7): how the share of wins of reply a moves with the
 * length difference d = len(a) − len(b) — win shares per quantile bin of d, and a logistic slope of
 * P(a wins) on sign(d)·ln(1 + |d|) over the decisive items.
 */
import {
  type CertInterval,
  type CertStat,
  type CertificationReason,
  Z_975,
  certInterval,
  certValue,
  certNoInterval,
  sameLength,
  twoSidedNormalP,
  certNull,
} from './certification-types';
import { isMissing, type LabelCodes } from './types';
import { LOSE, type OutcomeCodes, TIE, WIN } from './winrate';

export interface LengthBin {
  /** 1-based bin number. */
  readonly bin: number;
  readonly lowerEdge: number;
  readonly upperEdge: number;
  readonly n: number;
  readonly wins: number;
  readonly ties: number;
  readonly losses: number;
  /** W/n (ties are not wins). */
  readonly winShare: CertStat;
  /** (W + T/2)/n (Concord's default tie policy). */
  readonly winShareTiesHalf: CertStat;
  /** W/(W + L). */
  readonly winShareExclTies: CertStat;
}

export interface LogisticSlope {
  readonly slope: CertStat;
  readonly slopeSe: CertStat;
  readonly intercept: CertStat;
  readonly interceptSe: CertStat;
  /** Wald z = β₁/se₁ and its two-sided p-value. */
  readonly z: CertStat;
  readonly pValue: CertStat;
  readonly slopeCi95: CertInterval;
  readonly logLikelihood: CertStat;
  readonly iterations: number;
}

export interface LengthBias extends LogisticSlope {
  readonly n: number;
  /** Type-7 quantiles of d at 0, 1/B, …, 1; null (`no_items`) when n = 0. */
  readonly quantileEdges: number[] | null;
  readonly bins: LengthBin[] | null;
  readonly nDecisive: number;
}

/** Type-7 quantile position (n − 1)k/B split into an integer part j and a remainder f (exact). */
function edgePosition(n: number, k: number, B: number): { j: number; f: number } {
  const pos = (n - 1) * k;
  return { j: Math.floor(pos / B), f: pos % B };
}

/**
 * Type-7 (linear) quantile edges of integer length differences and each item's bin, decided in
 * exact integer arithmetic so no item lands in the wrong bin by a rounding of the edge.
 * Formula: j = ⌊(n−1)k/B⌋, f = (n−1)k mod B, e_k = s_j + (f/B)(s_{j+1} − s_j);
 * bin(d) = #{k ∈ 1..B−1 : B·d ≥ B·s_j + f·(s_{j+1} − s_j)}.
 * @see Hyndman & Fan (1996) Am. Stat. 50 (type 7); numpy.quantile(method='linear'); STATS-2.md §7.2.
 */
export function quantileBins(lengthDiff: readonly number[], B = 5): { edges: number[]; bins: number[] } {
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`number of bins must be a positive integer, got ${B}`);
  for (const d of lengthDiff) {
    if (!Number.isInteger(d)) throw new RangeError(`length differences must be integers, got ${d}`);
    // B·d and f·(s_{j+1} − s_j) must stay exact doubles for the bin comparison.
    if (Math.abs(d) > 2 ** 48 / B) throw new RangeError(`length difference ${d} is too large to bin exactly`);
  }
  const n = lengthDiff.length;
  if (n === 0) throw new RangeError('quantile bins need at least one item');
  const s = [...lengthDiff].sort((x, y) => x - y);
  const at = (k: number) => {
    const { j, f } = edgePosition(n, k, B);
    return { j, f, base: s[j], step: f === 0 ? 0 : s[j + 1] - s[j] };
  };
  const edges: number[] = [];
  for (let k = 0; k <= B; k++) {
    const { f, base, step } = at(k);
    edges.push(f === 0 ? base : base + (f * step) / B);
  }
  const interior = Array.from({ length: B - 1 }, (_, i) => at(i + 1));
  const bins = lengthDiff.map((d) => {
    let b = 0;
    for (const e of interior) if (B * d >= B * e.base + e.f * e.step) b++;
    return b;
  });
  return { edges, bins };
}

/** log(σ(η)) without overflow: −softplus(−η). */
function logSigmoid(eta: number): number {
  return eta >= 0 ? -Math.log1p(Math.exp(-eta)) : eta - Math.log1p(Math.exp(eta));
}

function sigmoid(eta: number): number {
  if (eta >= 0) return 1 / (1 + Math.exp(-eta));
  const e = Math.exp(eta);
  return e / (1 + e);
}

function noSlope(reason: CertificationReason, iterations = 0): LogisticSlope {
  const no = certNull(reason);
  return {
    slope: no,
    slopeSe: no,
    intercept: no,
    interceptSe: no,
    z: no,
    pValue: no,
    slopeCi95: certNoInterval(reason),
    logLikelihood: no,
    iterations,
  };
}

/**
 * Maximum-likelihood logistic regression of y ∈ {0, 1} on one predictor with an intercept, by
 * Newton–Raphson from β = 0; the cases where no finite unique MLE exists are reported, not fitted.
 * Formula: logit P(y = 1) = β₀ + β₁x; β ← β + H⁻¹Xᵀ(y − p), H = Xᵀdiag(p(1−p))X, until max|step| ≤ 1e−10;
 * se = √diag(H⁻¹); z = β₁/se₁, p = erfc(|z|/√2); CI β₁ ± 1.96·se₁.
 * @see Albert & Anderson (1984) Biometrika 71 (existence of the MLE); McCullagh & Nelder (1989) §4.4; STATS-2.md §7.3.
 */
export function logisticSlope(x: readonly number[], y: readonly number[]): LogisticSlope {
  sameLength(x, y, 'logistic regression');
  const n = x.length;
  const ones = new Float64Array(n);
  const zeros = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (y[i] === 1) ones[i] = 1;
    else if (y[i] === 0) zeros[i] = 1;
    else throw new RangeError(`outcomes must be 0 or 1, got ${y[i]}`);
  }
  return groupedLogisticSlope(x, ones, zeros);
}

/**
 * `logisticSlope` over observations grouped by predictor value: `ones[g]` observations with y = 1 and `zeros[g]`
 * with y = 0 at x = `x[g]` (the likelihood is the same as with every observation listed; a length bias over
 * 100,000 items has a few hundred distinct length differences). Groups without observations are ignored.
 */
function groupedLogisticSlope(x: ArrayLike<number>, ones: Float64Array, zeros: Float64Array): LogisticSlope {
  const G = x.length;
  let total = 0;
  let first = NaN;
  let constantX = true;
  let any1 = false;
  let any0 = false;
  let max0 = -Infinity;
  let min0 = Infinity;
  let max1 = -Infinity;
  let min1 = Infinity;
  for (let g = 0; g < G; g++) {
    if (ones[g] + zeros[g] === 0) continue;
    total += ones[g] + zeros[g];
    if (Number.isNaN(first)) first = x[g];
    else if (x[g] !== first) constantX = false;
    if (ones[g] > 0) {
      any1 = true;
      max1 = Math.max(max1, x[g]);
      min1 = Math.min(min1, x[g]);
    }
    if (zeros[g] > 0) {
      any0 = true;
      max0 = Math.max(max0, x[g]);
      min0 = Math.min(min0, x[g]);
    }
  }
  if (total === 0) return noSlope('no_decisive_items');
  if (constantX) return noSlope('constant_predictor');
  if (!any1 || !any0) return noSlope('all_same_outcome');
  // Complete or quasi-complete separation (Albert & Anderson): the likelihood has no maximum.
  if (max0 <= min1 || max1 <= min0) return noSlope('separation');

  let b0 = 0;
  let b1 = 0;
  const fisher = () => {
    let h00 = 0;
    let h01 = 0;
    let h11 = 0;
    let g0 = 0;
    let g1 = 0;
    for (let g = 0; g < G; g++) {
      const m = ones[g] + zeros[g];
      if (m === 0) continue;
      const p = sigmoid(b0 + b1 * x[g]);
      const w = m * p * (1 - p);
      h00 += w;
      h01 += w * x[g];
      h11 += w * x[g] * x[g];
      const r = ones[g] - m * p;
      g0 += r;
      g1 += r * x[g];
    }
    const det = h00 * h11 - h01 * h01;
    return { h00, h01, h11, g0, g1, det };
  };
  let iterations = 0;
  let converged = false;
  while (iterations < 100) {
    const { h00, h01, h11, g0, g1, det } = fisher();
    const s0 = (h11 * g0 - h01 * g1) / det;
    const s1 = (h00 * g1 - h01 * g0) / det;
    b0 += s0;
    b1 += s1;
    iterations++;
    if (!Number.isFinite(b0) || !Number.isFinite(b1)) break;
    if (Math.max(Math.abs(s0), Math.abs(s1)) <= 1e-10) {
      converged = true;
      break;
    }
  }
  if (!converged) return noSlope('not_converged', iterations);
  const { h00, h11, det } = fisher();
  const se0 = Math.sqrt(h11 / det);
  const se1 = Math.sqrt(h00 / det);
  let ll = 0;
  for (let g = 0; g < G; g++) {
    const eta = b0 + b1 * x[g];
    if (ones[g] > 0) ll += ones[g] * logSigmoid(eta);
    if (zeros[g] > 0) ll += zeros[g] * logSigmoid(-eta);
  }
  const z = b1 / se1;
  return {
    slope: certValue(b1),
    slopeSe: certValue(se1),
    intercept: certValue(b0),
    interceptSe: certValue(se0),
    z: certValue(z),
    pValue: certValue(twoSidedNormalP(z)),
    slopeCi95: certInterval(b1 - Z_975 * se1, b1 + Z_975 * se1),
    logLikelihood: certValue(ll),
    iterations,
  };
}

/**
 * The predictor of the length-bias slope: a signed log of the length difference, so a few very
 * long replies do not dominate.
 * Formula: x = sign(d)·ln(1 + |d|).
 * @see STATS-2.md §7.3.
 */
export function lengthPredictor(d: number): number {
  return Math.sign(d) * Math.log1p(Math.abs(d));
}

/**
 * Length bias of pairwise verdicts: win shares per quantile bin of the length difference and the
 * logistic slope over decisive items. `labels` are pairwise codes from a's side.
 * Formula: per bin W/n, (W + T/2)/n, W/(W + L); slope of logit P(Win) on sign(d)·ln(1 + |d|).
 * @see Dubois et al. (2024) "Length-controlled AlpacaEval" (length as a confounder of preferences); STATS-2.md §7.
 */
export function lengthBias(
  lengthDiff: readonly number[],
  labels: LabelCodes,
  opts: { bins?: number; codes?: OutcomeCodes } = {},
): LengthBias {
  sameLength(lengthDiff, labels, 'length bias');
  const { lose, tie, win } = opts.codes ?? { lose: LOSE, tie: TIE, win: WIN };
  const B = opts.bins ?? 5;
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`number of bins must be a positive integer, got ${B}`);
  const n = lengthDiff.length;
  // Wins, ties and losses per distinct length difference: the bins and the fit only need these counts.
  const byDiff = new Map<number, number>();
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = labels[i];
    if (isMissing(c)) throw new RangeError(`item ${i}: missing label`);
    const o = c === win ? 0 : c === tie ? 1 : c === lose ? 2 : -1;
    if (o < 0) throw new RangeError(`item ${i}: code ${c} is not a pairwise outcome`);
    const d = lengthDiff[i];
    let g = byDiff.get(d);
    if (g === undefined) {
      if (!Number.isInteger(d)) throw new RangeError(`length differences must be integers, got ${d}`);
      // B·d and f·(s_{j+1} − s_j) must stay exact doubles for the bin comparison.
      if (Math.abs(d) > 2 ** 48 / B) throw new RangeError(`length difference ${d} is too large to bin exactly`);
      byDiff.set(d, (g = counts.length / 3));
      counts.push(0, 0, 0);
    }
    counts[3 * g + o]++;
  }
  let edges: number[] | null = null;
  let bins: LengthBin[] | null = null;
  const diffs = [...byDiff.keys()].sort((x, y) => x - y);
  if (n > 0) {
    // The sorted sample s is the distinct differences, each repeated as often as it occurs: s[j] is the first
    // distinct difference whose cumulative count passes j.
    const ends: number[] = [];
    let total = 0;
    for (const d of diffs) {
      const g = byDiff.get(d)!;
      total += counts[3 * g] + counts[3 * g + 1] + counts[3 * g + 2];
      ends.push(total);
    }
    const sorted = (j: number) => {
      let lo = 0;
      let hi = ends.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ends[mid] > j) hi = mid;
        else lo = mid + 1;
      }
      return diffs[lo];
    };
    const at = (k: number) => {
      const { j, f } = edgePosition(n, k, B);
      const base = sorted(j);
      return { j, f, base, step: f === 0 ? 0 : sorted(j + 1) - base };
    };
    const positions = Array.from({ length: B + 1 }, (_, k) => at(k));
    edges = positions.map(({ f, base, step }) => (f === 0 ? base : base + (f * step) / B));
    const interior = positions.slice(1, B);
    const wtl = Array.from({ length: B }, () => ({ w: 0, t: 0, l: 0 }));
    for (const d of diffs) {
      let b = 0;
      for (const e of interior) if (B * d >= B * e.base + e.f * e.step) b++;
      const g = byDiff.get(d)!;
      wtl[b].w += counts[3 * g];
      wtl[b].t += counts[3 * g + 1];
      wtl[b].l += counts[3 * g + 2];
    }
    bins = wtl.map(({ w, t, l }, b) => {
      const nb = w + t + l;
      const empty = certNull('empty_bin');
      return {
        bin: b + 1,
        lowerEdge: edges![b],
        upperEdge: edges![b + 1],
        n: nb,
        wins: w,
        ties: t,
        losses: l,
        winShare: nb === 0 ? empty : certValue(w / nb),
        winShareTiesHalf: nb === 0 ? empty : certValue((w + t / 2) / nb),
        winShareExclTies: nb === 0 ? empty : w + l === 0 ? certNull('no_decisive_items_in_bin') : certValue(w / (w + l)),
      };
    });
  }
  const x = new Float64Array(diffs.length);
  const ones = new Float64Array(diffs.length);
  const zeros = new Float64Array(diffs.length);
  let nDecisive = 0;
  diffs.forEach((d, k) => {
    const g = byDiff.get(d)!;
    x[k] = lengthPredictor(d);
    ones[k] = counts[3 * g];
    zeros[k] = counts[3 * g + 2];
    nDecisive += ones[k] + zeros[k];
  });
  return { n, quantileEdges: edges, bins, nDecisive, ...groupedLogisticSlope(x, ones, zeros) };
}
