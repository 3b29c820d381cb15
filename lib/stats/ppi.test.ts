import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOSE, TIE, WIN, ppiLambdaMean, ppiMean, ppiOutcomes } from './index';

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('prediction-powered inference', () => {
  it('λ = 0 is the classical estimate and SE; λ̂ lies in [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(unit, unit), { minLength: 2, maxLength: 40 }),
        fc.array(unit, { minLength: 2, maxLength: 40 }),
        (lab, unl) => {
          const y = lab.map((p) => p[0]);
          const yhat = lab.map((p) => p[1]);
          const r = ppiMean(y, yhat, unl);
          const zero = ppiLambdaMean(y, yhat, unl, 0);
          expect(Math.abs(zero.estimate - (r.classical.estimate.value as number))).toBeLessThan(1e-12);
          expect(Math.abs(zero.se - (r.classical.se.value as number))).toBeLessThan(1e-12);
          const lambda = r.ppiPlusPlus.lambda.value as number;
          expect(lambda).toBeGreaterThanOrEqual(0);
          expect(lambda).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('effective number of human labels: n·se_classical²/se_PPI++² (hand example of STATS-2 §3.4)', () => {
    const r = ppiMean([1, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 1, 0, 1]);
    const expected = (4 * 0.21650635094610965 ** 2) / 0.19279629186332914 ** 2;
    expect(Math.abs((r.effectiveLabels.value as number) - expected)).toBeLessThan(1e-12);
    expect(ppiMean([1], [1], [1, 0]).effectiveLabels).toEqual({ value: null, reason: 'too_few_labelled_items' });
  });

  it('outcomes: win value under the tie policy (pairwise) or desired-label share (rubric)', () => {
    expect(ppiOutcomes([WIN, TIE, LOSE], { kind: 'pairwise', policy: 'half' })).toEqual([1, 0.5, 0]);
    expect(ppiOutcomes([WIN, TIE, LOSE], { kind: 'pairwise', policy: 'non_win' })).toEqual([1, 0, 0]);
    expect(() => ppiOutcomes([WIN], { kind: 'pairwise', policy: 'exclude' })).toThrow(/tie policy/);
    expect(ppiOutcomes([0, 1, 2], { kind: 'rubric', desired: [0, 1], q: 3 })).toEqual([1, 1, 0]);
    expect(() => ppiOutcomes([3], { kind: 'rubric', desired: [0], q: 3 })).toThrow(RangeError);
    expect(() => ppiOutcomes([WIN, -1], { kind: 'pairwise', policy: 'half' })).toThrow(/missing/);
  });

  it('input errors throw: ragged labelled arrays, values outside [0, 1]', () => {
    expect(() => ppiMean([1, 0], [1], [0, 1])).toThrow(RangeError);
    expect(() => ppiMean([1, 2], [1, 0], [0, 1])).toThrow(RangeError);
  });
});
