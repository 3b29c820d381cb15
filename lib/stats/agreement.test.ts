import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Stat,
  type Weighting,
  bennettS,
  cohenKappa,
  cohenKappaWithSe,
  congerKappa,
  contingencyTable,
  countsFromLabels,
  encodeLabels,
  fleissKappa,
  fleissKappaPerCategory,
  gwetAc1,
  gwetAc1FromTable,
  itemCountsFromRaters,
  krippendorffAlphaFromTable,
  percentAgreement,
  percentAgreementPairwise,
  percentAgreementUnanimous,
  randolphKappa,
  scottPi,
  tableFromLabels,
} from './index';

const Q = 3;
const WEIGHTS: Weighting[] = ['unweighted', 'linear', 'quadratic'];
/** Paired codes of two raters over 1–80 items, three declared categories. */
const pairs = fc.array(fc.tuple(fc.integer({ min: 0, max: Q - 1 }), fc.integer({ min: 0, max: Q - 1 })), { minLength: 1, maxLength: 80 });
const split = (p: Array<[number, number]>) => [p.map((x) => x[0]), p.map((x) => x[1])] as const;
const transpose = (t: number[][]) => t.map((_, i) => t.map((row) => row[i]));
const close = (a: Stat, b: Stat, tol = 1e-12) => {
  expect(a.value === null).toBe(b.value === null);
  if (a.value !== null && b.value !== null) expect(Math.abs(a.value - b.value)).toBeLessThanOrEqual(tol);
  else expect(a.reason).toBe(b.reason);
};
/** Shuffles with a fast-check-provided key per item (stable, deterministic). */
function permute<T>(xs: readonly T[], keys: readonly number[]): T[] {
  return xs
    .map((x, i) => ({ x, k: keys[i % keys.length] + i / 1e6 }))
    .sort((a, b) => a.k - b.k)
    .map((e) => e.x);
}

describe('two-rater coefficients: properties', () => {
  it('κ, π, α and AC1 of a rater with itself are 1 when there is variation', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: Q - 1 }), { minLength: 2, maxLength: 80 }), (a) => {
        fc.pre(new Set(a).size > 1);
        const t = contingencyTable(a, a, Q);
        for (const weights of WEIGHTS) expect(cohenKappa(t, { weights }).value).toBeCloseTo(1, 12);
        expect(scottPi(t).value).toBeCloseTo(1, 12);
        expect(krippendorffAlphaFromTable(t).value).toBeCloseTo(1, 12);
        expect(gwetAc1FromTable(t).value).toBeCloseTo(1, 12);
      }),
    );
  });

  it('swapping the two raters leaves κ (all weightings), π, S, AC1/AC2 and α unchanged', () => {
    fc.assert(
      fc.property(pairs, (p) => {
        const [a, b] = split(p);
        const t = contingencyTable(a, b, Q);
        const u = contingencyTable(b, a, Q);
        expect(u).toEqual(transpose(t));
        for (const weights of WEIGHTS) {
          close(cohenKappa(t, { weights }), cohenKappa(u, { weights }));
          close(gwetAc1FromTable(t, { weights }), gwetAc1FromTable(u, { weights }));
        }
        close(scottPi(t), scottPi(u));
        close(bennettS(t), bennettS(u));
        close(krippendorffAlphaFromTable(t, { metric: 'ordinal' }), krippendorffAlphaFromTable(u, { metric: 'ordinal' }));
      }),
    );
  });

  it('permuting items leaves every coefficient unchanged', () => {
    fc.assert(
      fc.property(pairs, fc.array(fc.integer(), { minLength: 1 }), (p, keys) => {
        const [a, b] = split(p);
        const [a2, b2] = split(permute(p, keys));
        const t = contingencyTable(a, b, Q);
        const t2 = contingencyTable(a2, b2, Q);
        for (const weights of WEIGHTS) close(cohenKappa(t, { weights }), cohenKappa(t2, { weights }));
        close(scottPi(t), scottPi(t2));
        close(gwetAc1FromTable(t), gwetAc1FromTable(t2));
        close(fleissKappa(itemCountsFromRaters([a, b], Q)), fleissKappa(itemCountsFromRaters([a2, b2], Q)));
      }),
    );
  });

  it('κ (all weightings), π and AC1 stay within [−1, 1]', () => {
    fc.assert(
      fc.property(pairs, (p) => {
        const [a, b] = split(p);
        const t = contingencyTable(a, b, Q);
        const stats = [...WEIGHTS.map((weights) => cohenKappa(t, { weights })), scottPi(t), gwetAc1FromTable(t), bennettS(t)];
        for (const s of stats) if (s.value !== null) expect(Math.abs(s.value)).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });

  it('two raters without missing data: Fleiss κ = Scott π, α = π + (1 − π)/(2n), AC1 from counts = AC1 from the table, Conger = Cohen', () => {
    fc.assert(
      fc.property(pairs, (p) => {
        const [a, b] = split(p);
        const t = contingencyTable(a, b, Q);
        const counts = itemCountsFromRaters([a, b], Q);
        const pi = scottPi(t);
        close(fleissKappa(counts), pi);
        const alpha = krippendorffAlphaFromTable(t);
        if (pi.value !== null && alpha.value !== null) expect(alpha.value).toBeCloseTo(pi.value + (1 - pi.value) / (2 * p.length), 12);
        for (const weights of WEIGHTS) close(gwetAc1(counts, { weights }), gwetAc1FromTable(t, { weights }));
        const codes = new Int8Array(p.flat());
        close(congerKappa({ nItems: p.length, nRaters: 2, codes }, Q), cohenKappa(t));
        close(percentAgreementPairwise(counts), percentAgreement(t));
      }),
    );
  });
});

describe('two-rater coefficients: undefined and edge cases', () => {
  const empty = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const constant = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 7],
  ];

  it('an empty table gives no_items, never 0 or NaN', () => {
    for (const s of [percentAgreement(empty), cohenKappa(empty), scottPi(empty), bennettS(empty), gwetAc1FromTable(empty)]) {
      expect(s).toMatchObject({ value: null, reason: 'no_items' });
    }
  });

  it('one category used by both raters: κ, π, α are no_variation while agreement is 1 and AC1 is 1', () => {
    for (const weights of WEIGHTS) expect(cohenKappa(constant, { weights })).toMatchObject({ value: null, reason: 'no_variation' });
    expect(scottPi(constant)).toMatchObject({ value: null, reason: 'no_variation' });
    expect(krippendorffAlphaFromTable(constant)).toMatchObject({ value: null, reason: 'no_variation' });
    expect(cohenKappaWithSe(constant).ase).toMatchObject({ value: null, reason: 'no_variation' });
    expect(percentAgreement(constant).value).toBe(1);
    expect(gwetAc1FromTable(constant).value).toBe(1);
  });

  it('fewer than two declared categories: S and AC1 are too_few_categories', () => {
    expect(bennettS([[5]])).toMatchObject({ value: null, reason: 'too_few_categories' });
    expect(gwetAc1FromTable([[5]])).toMatchObject({ value: null, reason: 'too_few_categories' });
  });

  it('declaring an unused category leaves κ unchanged (two categories used) but changes AC1 (q enters p_e)', () => {
    const r1 = [1, 1, 3, 3, 1, 3];
    const r2 = [1, 3, 3, 3, 1, 1];
    const observed = tableFromLabels(r1, r2, [1, 3]);
    const declared = tableFromLabels(r1, r2, [1, 2, 3]);
    for (const weights of WEIGHTS) {
      expect(cohenKappa(observed, { weights }).value).toBeCloseTo(cohenKappa(declared, { weights }).value as number, 12);
    }
    expect(gwetAc1FromTable(observed).value).not.toBeCloseTo(gwetAc1FromTable(declared).value as number, 6);
  });

  it('rejects a label outside the declared set and a non-square table', () => {
    expect(() => encodeLabels(['win', 'draw'], ['lose', 'tie', 'win'])).toThrow(/not in the declared label set/);
    expect(() => contingencyTable([0, 3], [0, 1], 3)).toThrow(RangeError);
    expect(() => cohenKappa([[1, 2]])).toThrow(/square/);
  });

  it('skips items missing either label (listwise) in the contingency table', () => {
    const t = contingencyTable([0, -1, 2, null, 1], [0, 1, null, 2, 1], 3);
    expect(t).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ]);
  });
});

describe('many raters: undefined and edge cases', () => {
  it('no item with two ratings gives no_pairable_units', () => {
    const counts = countsFromLabels(
      [
        ['a', null],
        [null, 'b'],
      ],
      ['a', 'b'],
    );
    for (const s of [percentAgreementPairwise(counts), fleissKappa(counts), gwetAc1(counts), randolphKappa(counts)]) {
      expect(s).toMatchObject({ value: null, reason: 'no_pairable_units' });
    }
    expect(percentAgreementUnanimous(counts)).toMatchObject({ value: null, reason: 'no_pairable_units' });
  });

  it('no items gives no_items', () => {
    const counts = { nItems: 0, q: 3, counts: [] };
    expect(fleissKappa(counts)).toMatchObject({ value: null, reason: 'no_items' });
    expect(percentAgreementUnanimous(counts)).toMatchObject({ value: null, reason: 'no_items' });
  });

  it('every rating in one category: Fleiss and per-category κ are no_variation, AC1 is 1', () => {
    const counts = [
      [3, 0, 0],
      [3, 0, 0],
    ];
    expect(fleissKappa(counts)).toMatchObject({ value: null, reason: 'no_variation' });
    expect(fleissKappaPerCategory(counts).map((s) => s.reason)).toEqual(['no_variation', 'no_variation', 'no_variation']);
    expect(gwetAc1(counts).value).toBe(1);
    expect(percentAgreementPairwise(counts).value).toBe(1);
  });

  it('unanimous agreement can drop incomplete items like irr::agree', () => {
    const counts = [
      [2, 0],
      [1, 1],
      [3, 0],
    ];
    expect(percentAgreementUnanimous(counts).value).toBeCloseTo(2 / 3, 12);
    expect(percentAgreementUnanimous(counts, { minRatings: 3 }).value).toBe(1);
  });

  it('permuting items and raters leaves Fleiss κ, AC1, Conger κ and pairwise agreement unchanged', () => {
    const row = fc.array(fc.integer({ min: -1, max: Q - 1 }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), fc.array(fc.integer(), { minLength: 1 }), (rows, keys) => {
        const shuffled = permute(rows, keys).map((r) => [r[2], r[0], r[1]]);
        const m = (rs: number[][]) => ({ nItems: rs.length, nRaters: 3, codes: new Int8Array(rs.flat()) });
        const counts = (rs: number[][]) =>
          itemCountsFromRaters(
            [0, 1, 2].map((j) => rs.map((r) => r[j])),
            Q,
          );
        close(fleissKappa(counts(rows)), fleissKappa(counts(shuffled)));
        close(gwetAc1(counts(rows)), gwetAc1(counts(shuffled)));
        close(percentAgreementPairwise(counts(rows)), percentAgreementPairwise(counts(shuffled)));
        close(congerKappa(m(rows), Q), congerKappa(m(shuffled), Q));
      }),
    );
  });
});
