import { describe, expect, it } from 'vitest';
import { strataByPredictedLabel } from './acceptance-strata';
import { errorBoundedAcceptance } from './error-bounded-acceptance';

/*
 * STATS-3 §7.6 from item-level data: a pool of 1000 items, 700 predicted "correct" and 300 "incorrect", with a
 * calibration sample of 70 and 30 of them, wrong on 7 and 9.
 */
const labels = ['correct', 'incorrect', 'unused'];
const pool = [...Array<string>(700).fill('correct'), ...Array<string>(300).fill('incorrect')];
const calibration = [
  ...Array.from({ length: 70 }, (_, i) => ({ predicted: 'correct', human: i < 7 ? 'incorrect' : 'correct' })),
  ...Array.from({ length: 30 }, (_, i) => ({ predicted: 'incorrect', human: i < 9 ? 'correct' : 'incorrect' })),
];

describe('strataByPredictedLabel', () => {
  it('counts each predicted label’s calibration items, errors and pool, in declared order', () => {
    expect(strataByPredictedLabel(labels, calibration, pool)).toEqual([
      { name: 'correct', n: 70, errors: 7, pool: 700 },
      { name: 'incorrect', n: 30, errors: 9, pool: 300 },
      { name: 'unused', n: 0, errors: 0, pool: 0 },
    ]);
  });

  it('feeds errorBoundedAcceptance to the worked example of STATS-3 §7.6 (ε = 0.2: one class, coverage 0.7)', () => {
    const r = errorBoundedAcceptance(strataByPredictedLabel(labels, calibration, pool), {
      epsilon: 0.2,
      delta: 0.05,
      method: 'bonferroni',
    });
    expect(r.m).toBe(2);
    expect(r.accepted).toEqual(['correct']);
    expect(r.coverage.value).toBeCloseTo(0.7, 12);
    expect(r.humanLabels).toBe(370);
    expect(r.finalErrorRateBound.value).toBeCloseTo(0.126, 12);
  });

  it('refuses a calibration sample that is not part of the pool', () => {
    expect(() => strataByPredictedLabel(labels, calibration, pool.slice(650))).toThrow(/must include them/);
  });
});
