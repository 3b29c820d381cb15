import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOSE, TIE, WIN, binomialTestHalf, humanPositionBias, judgePositionBias } from './index';

describe('position bias', () => {
  it('large n: the floating-point tail agrees with the sum in exact integers', () => {
    const exact = (k: number, n: number) => {
      const m = Math.min(k, n - k);
      let c = 1n;
      let sum = 1n;
      for (let i = 0; i < m; i++) {
        c = (c * BigInt(n - i)) / BigInt(i + 1);
        sum += c;
      }
      const shift = Math.max(0, sum.toString(2).length - 64);
      return Math.min(1, 2 * Number(sum >> BigInt(shift)) * 2 ** (shift - n));
    };
    for (const [k, n] of [
      [1000, 2001],
      [1050, 2001],
      [2400, 5000],
      [2480, 5000],
      [2600, 5000],
      [3000, 8000],
    ]) {
      const p = binomialTestHalf(k, n);
      expect(Math.abs(p - exact(k, n)) / exact(k, n)).toBeLessThan(1e-9);
    }
  });

  it('exact binomial test: symmetric in k ↔ n − k, 1 at 2k = n, and the hand value 2·794/4096', () => {
    expect(binomialTestHalf(8, 12)).toBe((2 * 794) / 4096);
    expect(binomialTestHalf(5, 10)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), (a, b) => {
        const n = Math.max(a, b);
        const k = Math.min(a, b);
        const p = binomialTestHalf(k, n);
        expect(p).toBe(binomialTestHalf(n - k, n));
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
    // Beyond the range of 2^−n in doubles, the sum is still exact until the final division.
    expect(binomialTestHalf(4000, 10000)).toBeGreaterThan(0);
  });

  it('a consistent judge (same verdict in both orders) prefers the first position exactly half the time', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(LOSE, TIE, WIN), { minLength: 1, maxLength: 50 }), (v) => {
        const r = judgePositionBias(v.map((c) => ({ aFirst: c, bFirst: c })));
        expect(r.flips).toBe(0);
        if (r.firstPreferred.decisive > 0) expect(r.firstPreferred.rate.value).toBe(0.5);
        else expect(r.firstPreferred.rate).toEqual({ value: null, reason: 'no_decisive_verdicts' });
      }),
    );
  });

  it('one verdict per item and reviewer; codes outside the pairwise set throw', () => {
    const rec = { item: 'q1', reviewer: 'r1', shownFirst: 'a' as const, label: WIN };
    expect(() => humanPositionBias([rec, rec])).toThrow(/second verdict/);
    expect(() => humanPositionBias([{ ...rec, label: 7 }])).toThrow(RangeError);
  });
});
