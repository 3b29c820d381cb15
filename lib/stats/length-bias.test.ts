import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOSE, TIE, WIN, lengthBias, lengthPredictor, logisticSlope, quantileBins } from './index';

describe('length bias', () => {
  it('quantile bins: every item in one of B bins, assigned monotonically in d, edges non-decreasing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -500, max: 500 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        (d, B) => {
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
        },
      ),
    );
  });

  it('the logistic slope changes sign when x or the outcome is mirrored', () => {
    const x = [-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 1.5];
    const y = [0, 0, 1, 0, 1, 0, 1, 1, 1, 0];
    const fit = logisticSlope(x, y);
    const mirroredX = logisticSlope(
      x.map((v) => -v),
      y,
    );
    const flippedY = logisticSlope(
      x,
      y.map((v) => 1 - v),
    );
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

  it('counting per distinct length difference gives the bins and the slope of the item-by-item definitions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -40, max: 40 }), fc.constantFrom(WIN, TIE, LOSE)), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 6 }),
        (rows, B) => {
          const d = rows.map((r) => r[0]);
          const labels = rows.map((r) => r[1]);
          const r = lengthBias(d, labels, { bins: B });
          const q = quantileBins(d, B);
          expect(r.quantileEdges).toEqual(q.edges);
          for (let b = 0; b < B; b++) {
            const inBin = rows.filter((_, i) => q.bins[i] === b);
            expect(r.bins![b].wins).toBe(inBin.filter((x) => x[1] === WIN).length);
            expect(r.bins![b].ties).toBe(inBin.filter((x) => x[1] === TIE).length);
            expect(r.bins![b].losses).toBe(inBin.filter((x) => x[1] === LOSE).length);
          }
          const decisive = rows.filter((x) => x[1] !== TIE);
          const fit = logisticSlope(
            decisive.map((x) => lengthPredictor(x[0])),
            decisive.map((x) => (x[1] === WIN ? 1 : 0)),
          );
          expect(r.nDecisive).toBe(decisive.length);
          expect(r.slope.reason).toBe(fit.slope.reason);
          if (fit.slope.value !== null) {
            expect(r.slope.value).toBeCloseTo(fit.slope.value, 9);
            expect(r.slopeSe.value).toBeCloseTo(fit.slopeSe.value as number, 9);
            expect(r.logLikelihood.value).toBeCloseTo(fit.logLikelihood.value as number, 7);
          }
        },
      ),
    );
  });
});
