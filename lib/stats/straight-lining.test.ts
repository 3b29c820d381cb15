import { describe, expect, it } from 'vitest';
import { straightLining } from './straight-lining';

describe('straightLining', () => {
  it('reports the most-used label, its share and the longest run in the order given', () => {
    // Labels No = 0, Partly = 1, Yes = 2: Yes 5 times of 9, and a run of four Yes at the end.
    const r = straightLining([0, 2, 1, 1, 0, 2, 2, 2, 2], 3);
    expect(r).toEqual({ n: 9, mostUsed: { value: 2 }, mostUsedShare: { value: 5 / 9 }, longestRun: 4, longestRunLabel: { value: 2 } });
  });

  it('breaks a tie between equally used labels by the declared order and keeps the earliest of equally long runs', () => {
    const r = straightLining([2, 2, 0, 0], 3);
    expect(r.mostUsed).toEqual({ value: 0 });
    expect(r.mostUsedShare).toEqual({ value: 0.5 });
    expect(r.longestRun).toBe(2);
    expect(r.longestRunLabel).toEqual({ value: 2 });
  });

  it('skips missing labels without breaking a run', () => {
    const r = straightLining([1, null, 1, -1, 1, 0], 2);
    expect(r.n).toBe(4);
    expect(r.longestRun).toBe(3);
    expect(r.mostUsedShare).toEqual({ value: 0.75 });
  });

  it('is undefined, with a reason, for an annotator with no label', () => {
    expect(straightLining([null, null], 2)).toEqual({
      n: 0,
      mostUsed: { value: null, reason: 'no_items' },
      mostUsedShare: { value: null, reason: 'no_items' },
      longestRun: 0,
      longestRunLabel: { value: null, reason: 'no_items' },
    });
  });

  it('refuses a code outside the declared labels', () => {
    expect(() => straightLining([0, 3], 3)).toThrow(/not a declared label/);
  });
});
