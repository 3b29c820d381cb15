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
  return { slope: no, slopeSe: no, intercept: no, interceptSe: no, z: no, pValue: no, slopeCi95: certNoInterval(reason), logLikelihood: no, iterations };
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
  if (n === 0) return noSlope('no_decisive_items');
  if (x.every((v) => v === x[0])) return noSlope('constant_predictor');
  if (y.every((v) => v === y[0])) return noSlope('all_same_outcome');
  let max0 = -Infinity;
  let min0 = Infinity;
  let max1 = -Infinity;
  let min1 = Infinity;
  for (let i = 0; i < n; i++) {
    if (y[i] === 1) {
      max1 = Math.max(max1, x[i]);
      min1 = Math.min(min1, x[i]);
    } else if (y[i] === 0) {
      max0 = Math.max(max0, x[i]);
      min0 = Math.min(min0, x[i]);
    } else throw new RangeError(`outcomes must be 0 or 1, got ${y[i]}`);
  }
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
    for (let i = 0; i < n; i++) {
      const p = sigmoid(b0 + b1 * x[i]);
      const w = p * (1 - p);
      h00 += w;
      h01 += w * x[i];
      h11 += w * x[i] * x[i];
      g0 += y[i] - p;
      g1 += (y[i] - p) * x[i];
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
  for (let i = 0; i < n; i++) {
    const eta = b0 + b1 * x[i];
    ll += y[i] === 1 ? logSigmoid(eta) : logSigmoid(-eta);
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
  const outcomes = Array.from({ length: labels.length }, (_, i) => {
    const c = labels[i];
    if (isMissing(c)) throw new RangeError(`item ${i}: missing label`);
    if (c === win) return 'win' as const;
    if (c === tie) return 'tie' as const;
    if (c === lose) return 'lose' as const;
    throw new RangeError(`item ${i}: code ${c} is not a pairwise outcome`);
  });
  const n = lengthDiff.length;
  let edges: number[] | null = null;
  let bins: LengthBin[] | null = null;
  if (n > 0) {
    const q = quantileBins(lengthDiff, B);
    edges = q.edges;
    const wtl = Array.from({ length: B }, () => ({ w: 0, t: 0, l: 0 }));
    q.bins.forEach((b, i) => {
      const o = outcomes[i];
      if (o === 'win') wtl[b].w++;
      else if (o === 'tie') wtl[b].t++;
      else wtl[b].l++;
    });
    bins = wtl.map(({ w, t, l }, b) => {
      const nb = w + t + l;
      const empty = certNull('empty_bin');
      return {
        bin: b + 1,
        lowerEdge: q.edges[b],
        upperEdge: q.edges[b + 1],
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
  const x: number[] = [];
  const y: number[] = [];
  outcomes.forEach((o, i) => {
    if (o === 'tie') return;
    x.push(lengthPredictor(lengthDiff[i]));
    y.push(o === 'win' ? 1 : 0);
  });
  return { n, quantileEdges: edges, bins, nDecisive: x.length, ...logisticSlope(x, y) };
}
