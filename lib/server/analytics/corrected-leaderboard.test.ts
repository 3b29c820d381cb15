import { describe, expect, it } from 'vitest';
import { ppiMean } from '@/lib/stats';
import { FEW_LABELLED, correctedTally, correctedValues } from './corrected-leaderboard';

// The caution a corrected cell carries (STATS-2 3.5: a zero-width interval must be flagged; 3.7: below about 30
// labelled items a normal interval covers less often than it claims).
describe('correctedValues', () => {
  const mixed = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1));
  const off = (v: number[]) => v.map((x, i) => (i % 5 === 0 ? 1 - x : x));

  it('flags a zero-width interval: two labelled items and every verdict alike', () => {
    const r = correctedValues(ppiMean([1, 1], [1, 1], [1, 1, 1]), 2);
    expect(r.corrected).toEqual({ value: 1 });
    expect(r.intervals.corrected).toMatchObject({ lower: 1, upper: 1 });
    expect(r.caution).toBe('zero_width_interval');
  });

  it('flags fewer than 30 labelled items, and nothing from 30 on', () => {
    for (const n of [2, 10, FEW_LABELLED - 1]) {
      const y = mixed(n);
      expect(correctedValues(ppiMean(y, off(y), mixed(50)), n).caution, `n = ${n}`).toBe('few_labelled_items');
    }
    for (const n of [FEW_LABELLED, 200]) {
      const y = mixed(n);
      expect(correctedValues(ppiMean(y, off(y), mixed(50)), n).caution, `n = ${n}`).toBeNull();
    }
  });

  it('has no caution where there is no corrected interval', () => {
    const r = correctedValues(ppiMean([1], [1], [1, 0]), 1);
    expect(r.corrected).toEqual({ value: null, reason: 'too_few_labelled_items' });
    expect(r.caution).toBeNull();
  });
});

// The kind-neutral split both kinds' corrected cells read (a pairwise criterion's codes, a rubric dimension's),
// on one model's items of a hand-made study of six items.
describe('correctedTally', () => {
  //               item:  0   1   2   3   4   5
  const gold = Int8Array.of(2, -1, 0, 1, -1, 2);
  const verdict = Int8Array.of(2, 1, -1, 0, -1, 1);

  it('splits a model’s items into labelled and judged, judged only, and labelled without a verdict', () => {
    // The model's items, in study order (item 5 belongs to another model).
    expect(correctedTally([0, 1, 2, 3, 4], gold, verdict)).toEqual({
      y: [2, 1],
      yhat: [2, 0],
      yhatU: [1],
      judged: [0, 1, 3],
      labelledUnjudged: 1,
    });
    expect(correctedTally([5], gold, verdict)).toEqual({ y: [2], yhat: [1], yhatU: [], judged: [5], labelledUnjudged: 0 });
    expect(correctedTally([], gold, verdict)).toEqual({ y: [], yhat: [], yhatU: [], judged: [], labelledUnjudged: 0 });
  });
});
