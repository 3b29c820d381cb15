import { describe, expect, it } from 'vitest';
import { alignmentGroups } from './alignment';

/*
 * The alignment core's grouping on a hand-made example, without a study: three items, two catalog entries with
 * different label sets, a family keyed by the item (a tutor or model) and one keyed by item × entry.
 *
 *   entry 0 (labels a b):   item 0 gold a judge a · item 1 gold b judge a · item 2 no ground truth
 *   entry 1 (labels a b c): item 0 gold c, no verdict · item 1 gold a judge a · item 2 gold b judge c
 *   item 0 is tutor 0, items 1 and 2 tutor 1.
 */
const data = {
  n: 3,
  entries: 2,
  gold: Int8Array.from([0, 1, -1, 2, 0, 1]),
  verdict: Int8Array.from([0, 0, 1, -1, 0, 2]),
};
const tutorOf = Int32Array.from([0, 1, 1]);
const families = [
  { size: 2, item: tutorOf },
  { size: 4, item: tutorOf, entry: Int32Array.from([0, 1]), entrySize: 2 },
];
const AB = ['a', 'b'];
const ABC = ['a', 'b', 'c'];
const rows = (g: { items: Int32Array; gold: Int8Array; judge: Int8Array }) => [
  Array.from(g.items),
  Array.from(g.gold),
  Array.from(g.judge),
];

describe('the alignment groups of the core', () => {
  it('puts each judged label in everything, its entry and each family, and counts the unjudged per entry', () => {
    const { groups, unjudged, labels } = alignmentGroups(data, families, { labels: [AB, ABC] });
    // 0 everything, 1–2 the entries, 3–4 the tutors, 5–8 tutor × entry (tutor · 2 + entry).
    expect(groups.map(rows)).toEqual([
      [
        [0, 1, 1, 2],
        [0, 1, 0, 1],
        [0, 0, 0, 2],
      ],
      [
        [0, 1],
        [0, 1],
        [0, 0],
      ],
      [
        [1, 2],
        [0, 1],
        [0, 2],
      ],
      [[0], [0], [0]],
      [
        [1, 1, 2],
        [1, 0, 1],
        [0, 0, 2],
      ],
      [[0], [0], [0]],
      [[], [], []],
      [[1], [1], [0]],
      [
        [1, 2],
        [0, 1],
        [0, 2],
      ],
    ]);
    expect(Array.from(unjudged)).toEqual([0, 1]);
    // A group pooling entries with different label sets has none; one fed by a single entry has that entry's.
    expect(labels).toEqual([null, AB, ABC, null, null, AB, ABC, AB, ABC]);
  });

  it('folds codes by an entry map and leaves out the entries without one', () => {
    const { groups, unjudged, labels } = alignmentGroups(data, families, {
      labels: [null, ['x', 'y']],
      fold: [null, Int8Array.from([0, 0, 1])],
    });
    expect(rows(groups[0])).toEqual([
      [1, 2],
      [0, 0],
      [0, 1],
    ]);
    expect(groups[1].items).toHaveLength(0);
    expect(Array.from(unjudged)).toEqual([0, 1]);
    expect(labels.slice(0, 5)).toEqual([['x', 'y'], null, ['x', 'y'], ['x', 'y'], ['x', 'y']]);
  });
});
