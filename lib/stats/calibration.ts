/**
 * Calibration of a judge that gives k sampled labels or a verbalised confidence per item (STATS-3 part D):
 * Brier scores, expected calibration error over equal-width and equal-mass bins, and the points of a
 * reliability diagram. Bins are closed on the right, [0, 1/B], (1/B, 2/B], …, as in scikit-learn and
 * verified_calibration; the length-bias bins of STATS-2 7.2 are closed on the left, so this file keeps
 * its own binning rather than sharing theirs.
 */
import { type Maybe, declaredIndex, none, some } from './stats3-types';

/** The judge's k_i ≥ 1 sampled labels per item. */
export interface SampledJudge<L = string> {
  readonly samples: ReadonlyArray<readonly L[]>;
}

/** The judge's label and its verbalised confidence in [0, 1] per item. */
export interface VerbalisedJudge<L = string> {
  readonly predicted: readonly L[];
  readonly confidence: readonly number[];
}

export type CalibrationInput<L = string> = {
  /** Declared labels, in order: a modal tie goes to the first. */
  readonly labels: readonly L[];
  readonly gold: readonly L[];
} & (SampledJudge<L> | VerbalisedJudge<L>);

export interface ReliabilityBin {
  /** 1-based. */
  readonly bin: number;
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
  readonly meanConfidence: Maybe<number>;
  readonly accuracy: Maybe<number>;
  /** accuracy − mean confidence (negative: over-confident). */
  readonly gap: Maybe<number>;
}

export interface CalibrationResult {
  readonly n: number;
  /** Index of the judge's label per item (the modal sample label, or the verbalised one). */
  readonly predicted: number[];
  readonly confidence: number[];
  /** 1 when the judge's label equals gold, else 0. */
  readonly correct: number[];
  readonly accuracy: Maybe<number>;
  readonly meanConfidence: Maybe<number>;
  /** (1/N) Σ (c_i − correct_i)², sklearn's `brier_score_loss(correct, c)`. */
  readonly brierTopLabel: Maybe<number>;
  /** (1/N) Σ_i Σ_k (v_ik − [gold_i = k])², in [0, 2]; samples only (`no_distribution` otherwise). */
  readonly brierMulticlass: Maybe<number>;
  readonly ece: Maybe<number>;
  /** B equal-width bins; null (`no_items`) when there is no item, like every other figure. */
  readonly reliability: Maybe<ReliabilityBin[]>;
  /** The B + 1 type-7 quantile edges of the confidences. */
  readonly adaptiveEdges: Maybe<number[]>;
  readonly adaptiveEce: Maybe<number>;
  readonly adaptiveReliability: Maybe<ReliabilityBin[]>;
}

/** Confidence of one item with the equal-width bin it falls in, decided exactly (STATS-3 §5.3). */
interface Scored {
  readonly predicted: number;
  readonly confidence: number;
  readonly bin: number;
  /** v_i· over the declared labels (samples only). */
  readonly shares?: number[];
}

/**
 * From k samples: v_ik = count/k, the modal label (first declared among equal counts, compared exactly)
 * and c = max v; the bin ⌈B·m/k⌉ in integers, so 3/5 with B = 10 is bin 6, not 7 by rounding.
 */
function fromSamples<L>(samples: readonly L[], labels: readonly L[], B: number, where: string): Scored {
  const k = samples.length;
  if (k === 0) throw new RangeError(`${where}: no sample`);
  const counts = new Array<number>(labels.length).fill(0);
  samples.forEach((s) => counts[declaredIndex(labels, s, where)]++);
  let best = 0;
  for (let l = 1; l < counts.length; l++) if (counts[l] > counts[best]) best = l;
  const m = counts[best];
  return { predicted: best, confidence: m / k, bin: Math.max(1, Math.floor((B * m + k - 1) / k)), shares: counts.map((c) => c / k) };
}

/** A decimal confidence: t = B·c rounded to 9 decimals before the ceiling, so 0.3·10 counts as 3 (STATS-3 §5.3). */
function equalWidthBin(c: number, B: number): number {
  const t = Math.round(B * c * 1e9) / 1e9;
  return Math.max(1, Math.ceil(t));
}

/**
 * Type-7 quantile edges at b/B, with the index split in integers so no edge moves by rounding.
 * Formula: j = ⌊(N−1)b/B⌋, f = (N−1)b mod B, e_b = s_j + (f/B)(s_{j+1} − s_j).
 * @see Hyndman & Fan (1996) type 7; sklearn `calibration_curve(strategy='quantile')`.
 */
function quantileEdges(sorted: readonly number[], B: number): number[] {
  const N = sorted.length;
  return Array.from({ length: B + 1 }, (_, b) => {
    const j = Math.floor(((N - 1) * b) / B);
    const f = ((N - 1) * b) % B;
    return f === 0 ? sorted[j] : sorted[j] + (f / B) * (sorted[j + 1] - sorted[j]);
  });
}

function binStats(
  binOf: readonly number[],
  conf: readonly number[],
  correct: readonly number[],
  edges: (b: number) => [number, number],
  B: number,
) {
  const n = new Array<number>(B).fill(0);
  const sumC = new Array<number>(B).fill(0);
  const sumA = new Array<number>(B).fill(0);
  binOf.forEach((b, i) => {
    n[b - 1]++;
    sumC[b - 1] += conf[i];
    sumA[b - 1] += correct[i];
  });
  const N = binOf.length;
  let ece = 0;
  const bins: ReliabilityBin[] = n.map((nb, k) => {
    const [lower, upper] = edges(k + 1);
    if (nb === 0)
      return { bin: k + 1, lower, upper, n: 0, meanConfidence: none('empty_bin'), accuracy: none('empty_bin'), gap: none('empty_bin') };
    const mc = sumC[k] / nb;
    const acc = sumA[k] / nb;
    ece += (nb / N) * Math.abs(acc - mc);
    return { bin: k + 1, lower, upper, n: nb, meanConfidence: some(mc), accuracy: some(acc), gap: some(acc - mc) };
  });
  return { bins, ece };
}

/**
 * Calibration of a judge against gold.
 * Formula: ECE = Σ_b (n_b/N)·|accuracy_b − mean confidence_b| over non-empty bins; equal-width bin
 * max(1, ⌈B·c⌉); equal-mass bin 1 + #{b ∈ 1..B−1 : c > e_b} over type-7 quantile edges e_b.
 * @see Guo et al. (2017) ICML; Naeini et al. (2015) AAAI; Kumar, Liang & Ma (2019) NeurIPS,
 * p-lambda/verified_calibration@ee81c34; Brier (1950); STATS-3 §5.
 */
export function calibration<L>(input: CalibrationInput<L>, opts: { nBins?: number } = {}): CalibrationResult {
  const B = opts.nBins ?? 10;
  if (!(Number.isInteger(B) && B >= 1)) throw new RangeError(`n_bins must be a positive integer, got ${B}`);
  const { labels, gold } = input;
  const sampled = 'samples' in input;
  let scored: Scored[];
  if ('samples' in input) {
    if (input.samples.length !== gold.length) throw new RangeError('samples and gold have different lengths');
    scored = input.samples.map((s, i) => fromSamples(s, labels, B, `item ${i}`));
  } else {
    const { predicted, confidence } = input;
    if (predicted.length !== gold.length || confidence.length !== gold.length)
      throw new RangeError('predicted, confidence and gold have different lengths');
    scored = predicted.map((p, i) => {
      const c = confidence[i];
      if (!(c >= 0 && c <= 1)) throw new RangeError(`item ${i}: confidence ${c} is outside [0, 1]`);
      return { predicted: declaredIndex(labels, p, `item ${i}`), confidence: c, bin: equalWidthBin(c, B) };
    });
  }
  const goldIdx = gold.map((g, i) => declaredIndex(labels, g, `gold of item ${i}`));
  const N = scored.length;
  const conf = scored.map((s) => s.confidence);
  const correct = scored.map((s, i) => (s.predicted === goldIdx[i] ? 1 : 0));
  const equalWidth = (b: number): [number, number] => [(b - 1) / B, b / B];
  if (N === 0) {
    return {
      n: 0,
      predicted: [],
      confidence: [],
      correct: [],
      accuracy: none('no_items'),
      meanConfidence: none('no_items'),
      brierTopLabel: none('no_items'),
      brierMulticlass: none('no_items'),
      ece: none('no_items'),
      reliability: none('no_items'),
      adaptiveEdges: none('no_items'),
      adaptiveEce: none('no_items'),
      adaptiveReliability: none('no_items'),
    };
  }

  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const widthBins = binStats(
    scored.map((s) => s.bin),
    conf,
    correct,
    equalWidth,
    B,
  );
  const edges = quantileEdges(
    conf.slice().sort((a, b) => a - b),
    B,
  );
  const massBinOf = conf.map((c) => {
    let b = 1;
    for (let e = 1; e < B; e++) if (c > edges[e]) b++;
    return b;
  });
  const massBins = binStats(massBinOf, conf, correct, (b) => [edges[b - 1], edges[b]], B);
  return {
    n: N,
    predicted: scored.map((s) => s.predicted),
    confidence: conf,
    correct,
    accuracy: some(mean(correct)),
    meanConfidence: some(mean(conf)),
    brierTopLabel: some(mean(conf.map((c, i) => (c - correct[i]) ** 2))),
    brierMulticlass: sampled
      ? some(mean(scored.map((s, i) => (s.shares as number[]).reduce((acc, v, k) => acc + (v - (k === goldIdx[i] ? 1 : 0)) ** 2, 0))))
      : none('no_distribution'),
    ece: some(widthBins.ece),
    reliability: some(widthBins.bins),
    adaptiveEdges: some(edges),
    adaptiveEce: some(massBins.ece),
    adaptiveReliability: some(massBins.bins),
  };
}
