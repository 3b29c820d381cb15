import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { altTest, benjaminiYekutieli, oneSidedTTestLess } from './index';

describe('alt-test', () => {
  it('Benjamini–Yekutieli: hand example with m = 3 (H₃ = 11/6)', () => {
    const { adjusted, rejected } = benjaminiYekutieli([0.01, 0.04, 0.03], 0.06);
    const h = 11 / 6;
    // Sorted: 0.01, 0.03, 0.04 → m·H·p/rank = 0.055, 0.0825, 0.0733…; step-up minimum from the top.
    expect(adjusted[0]).toBeCloseTo(3 * h * 0.01, 15);
    expect(adjusted[1]).toBeCloseTo(h * 0.04, 15);
    expect(adjusted[2]).toBeCloseTo(h * 0.04, 15);
    expect(rejected).toEqual([true, false, false]);
  });

  it('BY-adjusted p-values are ≥ the raw ones, follow their order, and decide rejection at q', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), (p) => {
        const { adjusted, rejected } = benjaminiYekutieli(p, 0.05);
        p.forEach((x, i) => {
          expect(adjusted[i]).toBeGreaterThanOrEqual(x);
          expect(adjusted[i]).toBeLessThanOrEqual(1);
          expect(rejected[i]).toBe(adjusted[i] <= 0.05);
          p.forEach((y, j) => {
            if (x < y) expect(adjusted[i]).toBeLessThanOrEqual(adjusted[j]);
          });
        });
      }),
    );
  });

  it('zero variance: below, above and at the margin', () => {
    expect(oneSidedTTestLess([0, 0, 0], 0.2)).toMatchObject({ t: { value: null, reason: 'zero_variance_below_margin' }, p: { value: 0 } });
    expect(oneSidedTTestLess([1, 1, 1], 0.2)).toMatchObject({ t: { value: null, reason: 'zero_variance_above_margin' }, p: { value: 1 } });
    expect(oneSidedTTestLess([0, 0], 0)).toMatchObject({ p: { value: null, reason: 'zero_variance_at_margin' } });
  });

  it('nobody tested: ω, ρ and passes are null; undeclared codes throw', () => {
    const ratings = [
      [0, 0, 1],
      [1, 1, 1],
    ];
    const r = altTest(ratings, [0, 1], 2);
    expect(r.annotatorsTested).toBe(0);
    expect(r.winningRate).toEqual({ value: null, reason: 'no_annotator_tested' });
    expect(r.passes).toEqual({ value: null, reason: 'no_annotator_tested' });
    expect(() => altTest([[0, 5]], [0], 2)).toThrow(RangeError);
  });
});
