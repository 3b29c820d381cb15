/**
 * Percentile bootstrap over items. Each replicate draws n item indices with replacement and
 * hands them to the statistic, which rebuilds its tables from exactly those items — so every
 * criterion and every rater of a drawn item travels together and the clustering is kept.
 * Undefined replicates (e.g. a resample with no variation) are counted, by reason, never dropped
 * silently.
 */
import { createRng } from './random';
import { type Interval, type Stat, type UndefinedReason, defined, interval, undefinedInterval, undefinedStat } from './types';

/** Quantile definition: `linear` = numpy's default (type 7); `inverse_cdf` = smallest x with F(x) ≥ p (type 1). */
export type QuantileMethod = 'linear' | 'inverse_cdf';

export interface BootstrapOptions {
  /** Seed of the xoshiro128** stream; store it with the result. */
  readonly seed: number;
  /** Number of replicates B (default 2000). */
  readonly replicates?: number;
  /** Two-sided level of the percentile interval (default 0.95). */
  readonly level?: number;
  readonly quantile?: QuantileMethod;
  /** Keep the sorted defined replicate values in the result (for histograms and checks). */
  readonly keepReplicates?: boolean;
}

export interface BootstrapResult {
  /** The statistic on the full sample. */
  readonly estimate: Stat;
  /** Percentile interval over the defined replicates. */
  readonly interval: Interval;
  /** Standard deviation of the defined replicates (denominator B′ − 1). */
  readonly se: Stat;
  readonly replicates: number;
  readonly definedReplicates: number;
  readonly undefinedReplicates: number;
  /** Undefined replicates by reason. */
  readonly undefinedReasons: Readonly<Partial<Record<UndefinedReason, number>>>;
  readonly seed: number;
  readonly level: number;
  readonly quantile: QuantileMethod;
  readonly values?: Float64Array;
}

/**
 * Quantile of sorted values.
 * Formula: linear: x_(⌊h⌋) + (h − ⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)), h = (N − 1)p; inverse_cdf: x_(⌈Np⌉).
 * @see Hyndman & Fan (1996) The American Statistician 50(4), types 7 and 1.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number, method: QuantileMethod = 'linear'): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('quantile of an empty sample');
  if (method === 'inverse_cdf') return sorted[Math.min(n - 1, Math.max(0, Math.ceil(n * p - 1e-12) - 1))];
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function identity(n: number): Int32Array {
  const items = new Int32Array(n);
  for (let i = 0; i < n; i++) items[i] = i;
  return items;
}

/**
 * Item bootstrap of several statistics from the same resamples. `statistics(items)` receives the
 * drawn item indices (a buffer reused between replicates: read it, don't keep it) and returns one
 * Stat per key; the first call gets 0..n−1, the full sample.
 * Formula: CI = [Q(α/2), Q(1 − α/2)] of {θ*_b : θ*_b defined}, θ*_b = θ(items drawn with replacement).
 * @see Efron & Tibshirani (1993) An Introduction to the Bootstrap, ch. 13; STATS.md §6.
 */
export function itemBootstrap<K extends string>(
  nItems: number,
  statistics: (items: Int32Array) => Readonly<Record<K, Stat>>,
  opts: BootstrapOptions,
): Record<K, BootstrapResult> {
  const B = opts.replicates ?? 2000;
  const level = opts.level ?? 0.95;
  const quantile = opts.quantile ?? 'linear';
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`replicates must be a positive integer, got ${B}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const estimate = statistics(identity(nItems));
  const keys = Object.keys(estimate) as K[];
  const values = keys.map(() => new Float64Array(B));
  const definedCount = keys.map(() => 0);
  const reasons = keys.map((): Partial<Record<UndefinedReason, number>> => ({}));
  const out = {} as Record<K, BootstrapResult>;
  if (nItems === 0) {
    for (const k of keys) {
      out[k] = summarise(estimate[k], new Float64Array(0), B, { no_items: B }, opts.seed, level, quantile, opts.keepReplicates);
    }
    return out;
  }
  const rng = createRng(opts.seed);
  const items = new Int32Array(nItems);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < nItems; t++) items[t] = rng.nextInt(nItems);
    const rep = statistics(items);
    for (let j = 0; j < keys.length; j++) {
      const s = rep[keys[j]];
      if (s === undefined) throw new Error(`bootstrap statistic did not return key ${keys[j]}`);
      if (s.value === null) reasons[j][s.reason] = (reasons[j][s.reason] ?? 0) + 1;
      else values[j][definedCount[j]++] = s.value;
    }
  }
  keys.forEach((k, j) => {
    out[k] = summarise(estimate[k], values[j].subarray(0, definedCount[j]), B, reasons[j], opts.seed, level, quantile, opts.keepReplicates);
  });
  return out;
}

function summarise(
  estimate: Stat,
  defs: Float64Array,
  B: number,
  reasons: Partial<Record<UndefinedReason, number>>,
  seed: number,
  level: number,
  quantile: QuantileMethod,
  keep?: boolean,
): BootstrapResult {
  const sorted = Float64Array.from(defs).sort();
  const n = sorted.length;
  let ci: Interval;
  let se: Stat;
  if (n === 0) {
    ci = undefinedInterval('all_replicates_undefined');
    se = undefinedStat('all_replicates_undefined');
  } else {
    const a = (1 - level) / 2;
    ci = interval(quantileSorted(sorted, a, quantile), quantileSorted(sorted, 1 - a, quantile));
    let mean = 0;
    for (let i = 0; i < n; i++) mean += sorted[i];
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (sorted[i] - mean) * (sorted[i] - mean);
    se = n < 2 ? undefinedStat('all_replicates_undefined') : defined(Math.sqrt(ss / (n - 1)));
  }
  return {
    estimate,
    interval: ci,
    se,
    replicates: B,
    definedReplicates: n,
    undefinedReplicates: B - n,
    undefinedReasons: reasons,
    seed,
    level,
    quantile,
    ...(keep ? { values: sorted } : {}),
  };
}

/**
 * Item bootstrap of one statistic.
 * Formula: as `itemBootstrap` with a single key.
 * @see Efron & Tibshirani (1993) ch. 13.
 */
export function bootstrapStat(nItems: number, statistic: (items: Int32Array) => Stat, opts: BootstrapOptions): BootstrapResult {
  return itemBootstrap(nItems, (items) => ({ stat: statistic(items) }), opts).stat;
}

export interface ExactBootstrap {
  /** Each distinct value of the resampled mean with its probability, ascending. */
  readonly distribution: ReadonlyArray<{ readonly value: number; readonly probability: number }>;
  /** Standard deviation of the bootstrap distribution (the ideal bootstrap SE). */
  readonly se: number;
  /** Inverse-CDF percentile interval at `level`. */
  readonly interval: Interval;
}

/**
 * Exact bootstrap distribution of the mean of n ≤ 12 per-item values, by enumerating all n^n
 * resamples grouped as multisets (multinomial weights). Used to check the Monte-Carlo bootstrap.
 * Formula: P(c) = n!/(Π_i c_i!) / n^n for multiplicities c, mean = Σ_i c_i v_i / n.
 * @see Efron & Tibshirani (1993) ch. 6 (ideal bootstrap estimate); STATS.md §6.
 */
export function exactBootstrapOfMean(values: readonly number[], opts: { level?: number } = {}): ExactBootstrap {
  const n = values.length;
  if (n === 0 || n > 12) throw new RangeError(`exact enumeration supports 1 ≤ n ≤ 12 items, got ${n}`);
  const logFact = [0];
  for (let i = 1; i <= n; i++) logFact.push(logFact[i - 1] + Math.log(i));
  const points: Array<[number, number]> = [];
  const c = new Array<number>(n).fill(0);
  const visit = (i: number, left: number): void => {
    if (i === n - 1) {
      c[i] = left;
      let lw = logFact[n] - n * Math.log(n);
      let sum = 0;
      for (let j = 0; j < n; j++) {
        lw -= logFact[c[j]];
        sum += c[j] * values[j];
      }
      points.push([sum / n, Math.exp(lw)]);
      return;
    }
    for (let x = 0; x <= left; x++) {
      c[i] = x;
      visit(i + 1, left - x);
    }
  };
  visit(0, n);
  points.sort((a, b) => a[0] - b[0]);
  const distribution: Array<{ value: number; probability: number }> = [];
  for (const [v, p] of points) {
    const last = distribution[distribution.length - 1];
    if (last && Math.abs(v - last.value) <= 1e-12 * Math.max(1, Math.abs(v))) last.probability += p;
    else distribution.push({ value: v, probability: p });
  }
  let mean = 0;
  for (const d of distribution) mean += d.value * d.probability;
  let variance = 0;
  for (const d of distribution) variance += d.probability * (d.value - mean) ** 2;
  const a = (1 - (opts.level ?? 0.95)) / 2;
  const inv = (p: number): number => {
    let cum = 0;
    for (const d of distribution) {
      cum += d.probability;
      if (cum >= p - 1e-12) return d.value;
    }
    return distribution[distribution.length - 1].value;
  };
  return { distribution, se: Math.sqrt(variance), interval: interval(inv(a), inv(1 - a)) };
}
