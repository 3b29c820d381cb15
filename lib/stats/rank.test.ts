import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageRanks, kendallExactPValue, ordinalScores, pairCounts, rankCorrelation } from './index';

const scorePairs = fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 2, maxLength: 25 });
const split = (p: Array<[number, number]>) => [p.map((x) => x[0]), p.map((x) => x[1])] as const;

describe('rank agreement', () => {
  it('τ-b and ρ are symmetric in the two graders and lie in [−1, 1]', () => {
    fc.assert(
      fc.property(scorePairs, (p) => {
        const [a, b] = split(p);
        const ab = rankCorrelation(a, b);
        const ba = rankCorrelation(b, a);
        expect(ab.tauB.value).toBe(ba.tauB.value);
        expect(ab.tauBPValue.value).toBe(ba.tauBPValue.value);
        if (ab.spearmanRho.value === null) expect(ba.spearmanRho).toEqual(ab.spearmanRho);
        else expect(Math.abs(ab.spearmanRho.value - (ba.spearmanRho.value as number))).toBeLessThanOrEqual(1e-15);
        for (const s of [ab.tauB.value, ab.spearmanRho.value]) {
          if (s !== null) expect(Math.abs(s)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('pair counts add up: C + D + n₁ + n₂ − n₃ = n(n−1)/2', () => {
    fc.assert(
      fc.property(scorePairs, (p) => {
        const [a, b] = split(p);
        const c = pairCounts(a, b);
        expect(c.concordant + c.discordant + c.tiedA + c.tiedB - c.tiedBoth).toBe((c.n * (c.n - 1)) / 2);
      }),
    );
  });

  it('a grader against itself: τ-b = ρ = 1 unless its scores are constant', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 20 }), (a) => {
        const r = rankCorrelation(a, a);
        if (new Set(a).size === 1) expect(r.tauB).toEqual({ value: null, reason: 'constant_input' });
        else {
          expect(r.tauB.value).toBeCloseTo(1, 14);
          expect(r.spearmanRho.value).toBeCloseTo(1, 14);
        }
      }),
    );
  });

  it('exact Kendall p: closed forms 2/n! and 2/(n−1)!, and 1 at C = D', () => {
    let fact = 1;
    for (let n = 2; n <= 20; n++) {
      const prevFact = fact;
      fact *= n;
      expect(kendallExactPValue(n, 0)).toBeCloseTo(Math.min(1, 2 / fact), 15);
      if (n >= 3) expect(Math.abs(kendallExactPValue(n, 1) - 2 / prevFact)).toBeLessThan(1e-15 + 1e-12 * (2 / prevFact));
      // |C − D| ≤ 1: half of a symmetric distribution on each side, so p = 1 (up to rounding).
      expect(kendallExactPValue(n, Math.floor((n * (n - 1)) / 4))).toBeCloseTo(1, 14);
    }
  });

  it('mid-ranks share the mean position of a tie group', () => {
    expect(averageRanks([12, 2, 1, 12, 2])).toEqual([4.5, 2.5, 1, 4.5, 2.5]);
  });

  it('ordinal labels score as their index in the declared order; undeclared labels and ragged input throw', () => {
    expect(ordinalScores(['Yes', 'No', 'To some extent'], ['No', 'To some extent', 'Yes'])).toEqual([2, 0, 1]);
    expect(() => ordinalScores(['Maybe'], ['No', 'Yes'])).toThrow(/declared/);
    expect(() => rankCorrelation([1, 2], [1])).toThrow(RangeError);
  });
});
