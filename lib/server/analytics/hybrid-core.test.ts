import { describe, expect, it } from 'vitest';
import { type ParsedHybridOptions, hybridFromSource } from './hybrid';
import type { HybridCodes, HybridSource } from './hybrid-by-kind';

/*
 * The hybrid plan's core on a hand-made kind-neutral source, no database: six items, labels a/b, two groups.
 *
 *   item   0  1  2  3  4  5
 *   gold   a  a  b  b  a  —
 *   judge  a  a  b  a  a  b
 *   group  g  g  g  h  h  h
 *
 * Every item: the judge's "a" is right 3 of 4 times, its "b" 1 of 1 → accept "b" (the more accurate class), review
 * the 4 "a". Group g: "a" 2 of 2, "b" 1 of 1 → accept "a" (equal accuracy, the larger class). Group h: "a" 1 of 2.
 */
const codes: HybridCodes = {
  labels: ['a', 'b'],
  gold: [0, 0, 1, 1, 0, -1],
  verdict: [0, 0, 1, 0, 0, 1],
  confidence: new Float64Array(6).fill(NaN),
};
const o: ParsedHybridOptions = { judge: 'j', target: 0.95, epsilon: 0.05, delta: 0.05 };
const base: HybridSource = {
  criterion: 'c',
  head: { judge: 'j', criterion: 'c' },
  afterTarget: {},
  codes,
  runId: 1,
  itemIds: [1, 2, 3, 4, 5, 6],
  queueFields: () => ({}),
};

describe('hybridFromSource', () => {
  it('plans the entry on every item, and adds no group or entry field a kind does not have', () => {
    const r = hybridFromSource(9, base, o);
    expect(Object.keys(r).slice(0, 4)).toEqual(['studyId', 'judge', 'criterion', 'target']);
    expect(r).toMatchObject({ n: 5, acceptedClass: 'b', reviewedClasses: ['a'], reviewed: 4 });
    expect(r.classes.map((c) => [c.label, c.predicted, c.correct])).toEqual([
      ['a', 4, 3],
      ['b', 1, 1],
    ]);
    // Item 5 has a verdict and no ground truth: outside Padó's calibration sample, inside the acceptance's pool.
    expect(r.acceptance).toMatchObject({ pool: 6, calibration: 5 });
    expect(r).not.toHaveProperty('byModel');
    expect(r).not.toHaveProperty('byCriterion');
  });

  it("plans each group on its own items and each entry on its own codes, after the kind's fields", () => {
    const folded: HybridCodes = { ...codes, labels: ['ab'], gold: [0, 0, 0, 0, 0, -1], verdict: [0, 0, 0, 0, 0, 0] };
    const r = hybridFromSource(
      9,
      {
        ...base,
        afterTarget: { labels: ['a', 'b'] },
        groups: [
          { model: 'g', has: (i) => i < 3 },
          { model: 'h', has: (i) => i >= 3 },
        ],
        entries: [
          { head: { criterion: 'c', name: 'C', lenient: false }, codes: () => codes },
          { head: { criterion: 'd', name: 'D', lenient: true }, codes: () => folded },
        ],
      },
      o,
    ) as ReturnType<typeof hybridFromSource> & { byModel: { model: string; n: number; acceptedClass: string }[] };
    expect(Object.keys(r).slice(0, 5)).toEqual(['studyId', 'judge', 'criterion', 'target', 'labels']);
    expect(r.byModel.map((m) => [m.model, m.n, m.acceptedClass])).toEqual([
      ['g', 3, 'a'],
      ['h', 2, 'a'],
    ]);
    const entries = (r as unknown as { byCriterion: { criterion: string; lenient: boolean; n: number; acceptedClass: string }[] })
      .byCriterion;
    expect(entries.map((e) => [e.criterion, e.lenient, e.n, e.acceptedClass])).toEqual([
      ['c', false, 5, 'b'],
      ['d', true, 5, 'ab'],
    ]);
  });
});
