import { describe, expect, it } from 'vitest';
import {
  type Stat,
  bootstrapStat,
  cohenKappa,
  contingencyTable,
  createRng,
  exactBootstrapOfMean,
  itemBootstrap,
  quantileSorted,
} from './index';

const meanOf =
  (values: readonly number[]) =>
  (items: Int32Array): Stat => {
    let s = 0;
    for (let t = 0; t < items.length; t++) s += values[items[t]];
    return { value: s / items.length };
  };

describe('xoshiro128** generator', () => {
  it('is reproducible for a seed and differs between seeds', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xs = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(xs);
    expect(createRng(2 ** 40).nextUint32()).not.toBe(createRng(0).nextUint32());
  });

  it('draws integers in range with roughly uniform frequencies (chi-square, 9 df)', () => {
    const rng = createRng(7);
    const k = 10;
    const n = 100_000;
    const freq = new Array<number>(k).fill(0);
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const x = rng.nextInt(k);
      if (x >= 0 && x < k && Number.isInteger(x)) freq[x]++;
      else outOfRange++;
    }
    expect(outOfRange).toBe(0);
    const chi2 = freq.reduce((s, f) => s + (f - n / k) ** 2 / (n / k), 0);
    // 99.9th percentile of chi-square with 9 degrees of freedom is 27.88.
    expect(chi2).toBeLessThan(27.88);
    const u = createRng(8).nextFloat();
    expect(u >= 0 && u < 1).toBe(true);
  });

  it('rejects seeds it cannot represent exactly', () => {
    expect(() => createRng(-1)).toThrow(RangeError);
    expect(() => createRng(1.5)).toThrow(RangeError);
  });
});

describe('item bootstrap', () => {
  const values = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0];

  it('is deterministic for a seed and reports the seed, B and level', () => {
    const a = bootstrapStat(values.length, meanOf(values), { seed: 11, replicates: 500 });
    const b = bootstrapStat(values.length, meanOf(values), { seed: 11, replicates: 500 });
    const c = bootstrapStat(values.length, meanOf(values), { seed: 12, replicates: 500 });
    expect(a).toEqual(b);
    // The mean of 12 binary values is discrete, so compare the spread of the replicates.
    expect(c.se.value).not.toBe(a.se.value);
    expect(a).toMatchObject({ seed: 11, replicates: 500, level: 0.95, undefinedReplicates: 0, definedReplicates: 500 });
    expect(a.estimate.value).toBeCloseTo(8 / 12, 12);
  });

  it('the interval brackets the estimate and the SE is close to the exact bootstrap SE', () => {
    const small = values.slice(0, 8);
    const mc = bootstrapStat(small.length, meanOf(small), { seed: 3, replicates: 20_000 });
    const exact = exactBootstrapOfMean(small);
    expect(mc.interval.lower as number).toBeLessThanOrEqual(mc.estimate.value as number);
    expect(mc.interval.upper as number).toBeGreaterThanOrEqual(mc.estimate.value as number);
    expect(Math.abs((mc.se.value as number) - exact.se)).toBeLessThan(0.005);
  });

  it('counts undefined replicates by reason instead of dropping them silently', () => {
    // Two raters agree on 9 items of class 0 and on one item of class 1: many resamples miss the
    // class-1 item, leaving one category only, where κ is undefined.
    const a = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const b = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const r = bootstrapStat(10, (items) => cohenKappa(contingencyTable(a, b, 2, items)), { seed: 5, replicates: 1000 });
    expect(r.estimate.value).toBe(1);
    // P(the class-1 item is never drawn) = 0.9^10 ≈ 0.349.
    expect(r.undefinedReplicates).toBeGreaterThan(300);
    expect(r.undefinedReplicates).toBeLessThan(400);
    expect(r.undefinedReasons).toEqual({ no_variation: r.undefinedReplicates });
    expect(r.definedReplicates + r.undefinedReplicates).toBe(1000);
  });

  it('every replicate undefined gives an undefined interval with that reason', () => {
    const r = bootstrapStat(5, () => ({ value: null, reason: 'no_variation' }), { seed: 1, replicates: 50 });
    expect(r.interval).toEqual({ lower: null, upper: null, reason: 'all_replicates_undefined' });
    expect(r.se.value).toBeNull();
  });

  it('resamples whole items: statistics over several criteria see the same draw', () => {
    // Criterion 2 is a copy of criterion 1, so any cluster-respecting resample keeps them equal.
    const c1 = [0.1, 0.9, 0.4, 0.7, 0.3];
    const c2 = [...c1];
    const seen: string[] = [];
    const res = itemBootstrap(
      5,
      (items) => {
        seen.push(Array.from(items).join(','));
        return { c1: meanOf(c1)(items), c2: meanOf(c2)(items) };
      },
      { seed: 9, replicates: 200, keepReplicates: true },
    );
    expect(res.c1.interval).toEqual(res.c2.interval);
    expect(Array.from(res.c1.values ?? [])).toEqual(Array.from(res.c2.values ?? []));
    expect(seen[0]).toBe('0,1,2,3,4');
    expect(new Set(seen.slice(1)).size).toBeGreaterThan(150);
  });

  it('no items: estimate from the statistic, every replicate counted as no_items', () => {
    const r = bootstrapStat(0, () => ({ value: null, reason: 'no_items' }), { seed: 1, replicates: 10 });
    expect(r.undefinedReasons).toEqual({ no_items: 10 });
    expect(r.interval.reason).toBe('all_replicates_undefined');
  });
});

describe('quantiles and the exact bootstrap', () => {
  it('linear (type 7) and inverse-CDF (type 1) quantiles', () => {
    const xs = [1, 2, 3, 4];
    expect(quantileSorted(xs, 0.5)).toBe(2.5);
    expect(quantileSorted(xs, 0.5, 'inverse_cdf')).toBe(2);
    expect(quantileSorted(xs, 0)).toBe(1);
    expect(quantileSorted(xs, 1)).toBe(4);
    expect(quantileSorted(xs, 0.26, 'inverse_cdf')).toBe(2);
  });

  it('enumerates a proper distribution whose mean is the sample mean', () => {
    const vals = [0.2, 0.5, 0.5, 1, 0];
    const e = exactBootstrapOfMean(vals);
    const total = e.distribution.reduce((s, d) => s + d.probability, 0);
    expect(total).toBeCloseTo(1, 12);
    const mean = e.distribution.reduce((s, d) => s + d.value * d.probability, 0);
    expect(mean).toBeCloseTo(vals.reduce((s, x) => s + x, 0) / vals.length, 12);
    expect(() => exactBootstrapOfMean(new Array(13).fill(1))).toThrow(RangeError);
  });
});
