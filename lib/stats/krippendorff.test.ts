import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlphaMetric,
  alphaDistances,
  coincidenceFromTable,
  coincidenceMatrix,
  contingencyTable,
  countsFromLabels,
  itemCountsFromRaters,
  krippendorffAlpha,
  krippendorffAlphaFromTable,
} from './index';

const METRICS: AlphaMetric[] = ['nominal', 'ordinal', 'interval', 'ratio'];
const VALUES = [1, 2, 3, 4];
/** 1–30 items × 2–4 raters, codes 0..3 with −1 = missing. */
const ratings = fc
  .integer({ min: 2, max: 4 })
  .chain((m) => fc.array(fc.array(fc.integer({ min: -1, max: 3 }), { minLength: m, maxLength: m }), { minLength: 1, maxLength: 30 }));
const columns = (rows: number[][]) => rows[0].map((_, j) => rows.map((r) => r[j]));

describe("Krippendorff's alpha", () => {
  it('stays within [−1, 1] for every metric, with missing data', () => {
    fc.assert(
      fc.property(ratings, (rows) => {
        const counts = itemCountsFromRaters(columns(rows), 4);
        for (const metric of METRICS) {
          const a = krippendorffAlpha(counts, { metric, values: VALUES });
          if (a.value !== null) {
            expect(a.value).toBeLessThanOrEqual(1 + 1e-12);
            expect(a.value).toBeGreaterThanOrEqual(-1 - 1e-12);
          }
        }
      }),
    );
  });

  it('is unchanged by permuting items or raters', () => {
    fc.assert(
      fc.property(ratings, fc.array(fc.integer(), { minLength: 1 }), (rows, keys) => {
        const order = rows.map((_, i) => i).sort((x, y) => keys[x % keys.length] - keys[y % keys.length] || x - y);
        const shuffled = order.map((i) => [...rows[i]].reverse());
        const a = itemCountsFromRaters(columns(rows), 4);
        const b = itemCountsFromRaters(columns(shuffled), 4);
        for (const metric of METRICS) {
          const x = krippendorffAlpha(a, { metric, values: VALUES });
          const y = krippendorffAlpha(b, { metric, values: VALUES });
          expect(x.reason).toBe(y.reason);
          if (x.value !== null) expect(y.value).toBeCloseTo(x.value, 12);
        }
      }),
    );
  });

  it('declaring empty categories changes nothing (their coincidence marginals are 0)', () => {
    fc.assert(
      fc.property(ratings, (rows) => {
        const labels = ['a', 'b', 'c', 'd'];
        const asLabels = rows.map((r) => r.map((c) => (c < 0 ? null : labels[c])));
        const wide = countsFromLabels(asLabels, ['z', ...labels, 'y']);
        const narrow = countsFromLabels(asLabels, labels);
        for (const metric of ['nominal', 'ordinal'] as const) {
          const x = krippendorffAlpha(narrow, { metric });
          const y = krippendorffAlpha(wide, { metric });
          expect(x.reason).toBe(y.reason);
          if (x.value !== null) expect(y.value).toBeCloseTo(x.value, 12);
        }
      }),
    );
  });

  it('the two-rater table path equals the counts path', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 40 }),
        (p) => {
          const a = p.map((x) => x[0]);
          const b = p.map((x) => x[1]);
          const t = contingencyTable(a, b, 4);
          expect(coincidenceFromTable(t)).toEqual(coincidenceMatrix(itemCountsFromRaters([a, b], 4)));
          for (const metric of METRICS) {
            const x = krippendorffAlphaFromTable(t, { metric, values: VALUES });
            const y = krippendorffAlpha(itemCountsFromRaters([a, b], 4), { metric, values: VALUES });
            expect(x.reason).toBe(y.reason);
            if (x.value !== null) expect(y.value).toBeCloseTo(x.value, 12);
          }
        },
      ),
    );
  });

  it('returns no_pairable_units, no_variation and no_items instead of a number', () => {
    expect(
      krippendorffAlpha([
        [1, 0],
        [0, 1],
      ]),
    ).toMatchObject({ value: null, reason: 'no_pairable_units', pairableValues: 0 });
    expect(
      krippendorffAlpha(
        [
          [2, 0, 0],
          [3, 0, 0],
        ],
        { metric: 'interval' },
      ),
    ).toMatchObject({ value: null, reason: 'no_variation' });
    expect(krippendorffAlpha({ nItems: 0, q: 3, counts: [] })).toMatchObject({ value: null, reason: 'no_items' });
  });

  it('drops items with a single rating from the coincidences', () => {
    const withSingle = krippendorffAlpha([
      [2, 0],
      [1, 1],
      [0, 1],
    ]);
    const without = krippendorffAlpha([
      [2, 0],
      [1, 1],
    ]);
    expect(withSingle.value).toBe(without.value);
    expect(withSingle.pairableValues).toBe(4);
  });

  it('uses the declared order for the ordinal metric and the values for interval/ratio', () => {
    const d = alphaDistances('ordinal', [2, 4, 6]);
    expect(d[0][2]).toBe((2 + 4 + 6 - (2 + 6) / 2) ** 2);
    expect(alphaDistances('interval', [1, 1, 1], [0, 10, 30])[1][2]).toBe(400);
    expect(alphaDistances('ratio', [1, 1], [1, 3])[0][1]).toBe(0.25);
    expect(() => alphaDistances('interval', [1, 1, 1], [0, 1])).toThrow(/one value per declared category/);
  });
});
