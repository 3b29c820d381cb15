import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  clipToUnit,
  clopperPearsonInterval,
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedBeta,
  waldInterval,
  wilsonInterval,
  zForLevel,
} from './index';

/** P(Binomial(n, p) ≥ k) by direct summation, an independent check of the incomplete beta. */
function binomialUpperTail(n: number, k: number, p: number): number {
  let s = 0;
  for (let j = k; j <= n; j++) {
    let logC = 0;
    for (let t = 1; t <= j; t++) logC += Math.log((n - j + t) / t);
    s += Math.exp(logC + j * Math.log(p) + (n - j) * Math.log1p(-p));
  }
  return s;
}

describe('special functions', () => {
  it('normal quantile and CDF invert each other; z for 95% is the value used by the vectors', () => {
    expect(Math.abs(zForLevel(0.95) - 1.959963984540054)).toBeLessThan(1e-14);
    for (const p of [1e-12, 1e-6, 0.01, 0.2, 0.5, 0.7, 0.975, 0.999999]) {
      expect(Math.abs(normalCdf(normalQuantile(p)) - p)).toBeLessThan(1e-15 + 1e-12 * p);
    }
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-40)).toBeGreaterThanOrEqual(0);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });

  it('log-gamma matches log factorials', () => {
    let lf = 0;
    for (let n = 1; n < 60; n++) {
      expect(Math.abs(logGamma(n) - lf)).toBeLessThan(1e-12 * Math.max(1, lf));
      lf += Math.log(n);
    }
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
  });

  it('the regularised incomplete beta equals a binomial tail for integer arguments', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0.001, max: 0.999, noNaN: true }), (n, p) => {
        const k = Math.max(1, Math.round(n * p));
        expect(Math.abs(regularizedBeta(p, k, n - k + 1) - binomialUpperTail(n, k, p))).toBeLessThan(1e-11);
      }),
    );
  });

  it('the beta quantile inverts the incomplete beta', () => {
    for (const [a, b] of [
      [1, 1],
      [3, 8],
      [45, 6],
      [0.5, 0.5],
    ] as const) {
      for (const p of [0.025, 0.5, 0.975]) expect(regularizedBeta(betaQuantile(p, a, b), a, b)).toBeCloseTo(p, 12);
    }
  });
});

describe('proportion intervals', () => {
  const counts = fc.integer({ min: 1, max: 500 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it('Wilson and Clopper–Pearson contain the estimate and stay within [0, 1]', () => {
    fc.assert(
      fc.property(counts, ([x, n]) => {
        for (const ci of [wilsonInterval(x, n), clopperPearsonInterval(x, n)]) {
          if (ci.lower === null) throw new Error('interval should be defined');
          expect(ci.lower).toBeGreaterThanOrEqual(0);
          expect(ci.upper).toBeLessThanOrEqual(1);
          expect(ci.lower).toBeLessThanOrEqual(x / n + 1e-12);
          expect(ci.upper).toBeGreaterThanOrEqual(x / n - 1e-12);
        }
      }),
    );
  });

  it('a higher level gives a wider interval', () => {
    fc.assert(
      fc.property(counts, ([x, n]) => {
        const w90 = wilsonInterval(x, n, { level: 0.9 });
        const w99 = wilsonInterval(x, n, { level: 0.99 });
        const c90 = clopperPearsonInterval(x, n, { level: 0.9 });
        const c99 = clopperPearsonInterval(x, n, { level: 0.99 });
        expect((w99.lower as number) <= (w90.lower as number) + 1e-12 && (w99.upper as number) >= (w90.upper as number) - 1e-12).toBe(true);
        expect((c99.lower as number) <= (c90.lower as number) + 1e-12 && (c99.upper as number) >= (c90.upper as number) - 1e-12).toBe(true);
      }),
    );
  });

  it('Clopper–Pearson bounds solve the binomial tail equations', () => {
    const ci = clopperPearsonInterval(7, 20);
    expect(binomialUpperTail(20, 7, ci.lower as number)).toBeCloseTo(0.025, 10);
    expect(1 - binomialUpperTail(20, 8, ci.upper as number)).toBeCloseTo(0.025, 10);
  });

  it('n = 0 gives no_items; bad counts throw', () => {
    for (const ci of [wilsonInterval(0, 0), clopperPearsonInterval(0, 0), waldInterval(0, 0)]) {
      expect(ci).toEqual({ lower: null, upper: null, reason: 'no_items' });
    }
    expect(() => wilsonInterval(5, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 3)).toThrow(RangeError);
  });
});

describe('clipToUnit', () => {
  it('cuts a normal interval of a share at 0 and 1 and says it did (issue 26: "83.3 % [53.5 %, 113.2 %]")', () => {
    expect(clipToUnit(0.535, 1.132)).toEqual({ lower: 0.535, upper: 1, clipped: true });
    expect(clipToUnit(-0.193, 1.193)).toEqual({ lower: 0, upper: 1, clipped: true });
    expect(clipToUnit(0.2, 0.4)).toEqual({ lower: 0.2, upper: 0.4, clipped: false });
    expect(clipToUnit(0, 1)).toEqual({ lower: 0, upper: 1, clipped: false });
  });

  it('keeps every interval inside [0, 1] and every share in [0, 1] that the interval held', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (estimate, below, above, t) => {
          // A normal interval around an estimate that is itself a share.
          const c = clipToUnit(estimate - below, estimate + above);
          expect(c.lower).toBeGreaterThanOrEqual(0);
          expect(c.upper).toBeLessThanOrEqual(1);
          expect(c.lower).toBeLessThanOrEqual(estimate);
          expect(c.upper).toBeGreaterThanOrEqual(estimate);
          // Any share the interval held is still inside once cut.
          const from = Math.max(0, estimate - below);
          const to = Math.min(1, estimate + above);
          const p = Math.min(to, from + (to - from) * t);
          expect(p).toBeGreaterThanOrEqual(c.lower);
          expect(p).toBeLessThanOrEqual(c.upper);
        },
      ),
    );
  });

  it('refuses an interval that is not one', () => {
    expect(() => clipToUnit(0.6, 0.4)).toThrow(RangeError);
    expect(() => clipToUnit(Number.NaN, 0.4)).toThrow(RangeError);
  });
});
