import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOSE, WIN, lengthBias, logisticSlope, quantileBins } from './index';

describe('length bias', () => {
  it('quantile bins: every item in one of B bins, assigned monotonically in d, edges non-decreasing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -500, max: 500 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (d, B) => {
        const { edges, bins } = quantileBins(d, B);
        expect(edges).toHaveLength(B + 1);
        for (let k = 1; k <= B; k++) expect(edges[k]).toBeGreaterThanOrEqual(edges[k - 1]);
        d.forEach((x, i) => {
          expect(bins[i]).toBeGreaterThanOrEqual(0);
          expect(bins[i]).toBeLessThan(B);
          d.forEach((y, j) => {
            if (x < y) expect(bins[i]).toBeLessThanOrEqual(bins[j]);
          });
        });
      }),
    );
  });

  it('the logistic slope changes sign when x or the outcome is mirrored', () => {
    const x = [-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 1.5];
    const y = [0, 0, 1, 0, 1, 0, 1, 1, 1, 0];
    const fit = logisticSlope(x, y);
    const mirroredX = logisticSlope(x.map((v) => -v), y);
    const flippedY = logisticSlope(x, y.map((v) => 1 - v));
    expect(mirroredX.slope.value).toBeCloseTo(-(fit.slope.value as number), 12);
    expect(flippedY.slope.value).toBeCloseTo(-(fit.slope.value as number), 12);
    expect(flippedY.slopeSe.value).toBeCloseTo(fit.slopeSe.value as number, 12);
  });

  it('input errors: non-integer length differences, ragged arrays', () => {
    expect(() => lengthBias([1.5, 2], [WIN, LOSE])).toThrow(RangeError);
    expect(() => lengthBias([1, 2], [WIN])).toThrow(RangeError);
  });

  it('no items: edges and bins are null, the slope has no decisive item', () => {
    const r = lengthBias([], []);
    expect(r.quantileEdges).toBeNull();
    expect(r.bins).toBeNull();
    expect(r.slope).toEqual({ value: null, reason: 'no_decisive_items' });
  });
});
