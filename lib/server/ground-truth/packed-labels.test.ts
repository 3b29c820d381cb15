import { describe, expect, it } from 'vitest';
import { pairwiseLabels } from '@/lib/kinds/pairwise/labels';
import { ItemIndex } from '../packs/item-index';
import { walkPacks } from './packed-labels';

/*
 * The walk over the annotation packs on a pack text written here, so the segments can come in an order the table's
 * key never yields: SQLite's group_concat promises no order, and the newest revision of a slot must win wherever it
 * appears in the text.
 */

/** One segment: item id, slot, revision and reviewer, then the labels on criterion code 0 (lose 0, tie 1, win 2). */
const segment = (item: number, slot: number, revision: number, user: number, ...labels: number[]) =>
  `/${item},${slot},${revision},${user}.` + labels.map((l) => String.fromCharCode(48 + 3 * 0 + l)).join('');

function walk(text: string) {
  const items = new ItemIndex([10, 11]);
  const read = walkPacks(() => text, pairwiseLabels, 1, items, [], 1, { unitIndex: (code) => (code === 0 ? 0 : -1) });
  if (typeof read === 'number') throw new Error(`a slot beyond the plan: ${read}`);
  return read;
}

describe('the walk over the annotation packs', () => {
  it('keeps the newest revision of a slot when an older one comes after it', () => {
    const read = walk(
      segment(10, 1, 2, 7, 2) + segment(10, 1, 1, 7, 0) + segment(11, 1, 1, 8, 0) + segment(11, 1, 3, 9, 1) + segment(11, 1, 2, 8, 2),
    );
    expect(Array.from(read.given)).toEqual([2, 1]);
    expect(Array.from(read.holder)).toEqual([7, 9]);
    expect(Array.from(read.hasLabels)).toEqual([1, 1]);
  });

  it('lets a newer revision without labels clear the labels of an older one, in either order', () => {
    for (const text of [segment(10, 1, 1, 7, 2) + segment(10, 1, 2, 7), segment(10, 1, 2, 7) + segment(10, 1, 1, 7, 2)]) {
      const read = walk(text);
      expect(Array.from(read.given)).toEqual([-1, -1]);
      expect(Array.from(read.hasLabels)).toEqual([0, 0]);
    }
  });
});
