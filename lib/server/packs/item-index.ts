import 'server-only';
import type { Db } from '@/db/client';
import { dataItemIdsInOrder } from '@/db/queries/gold';

/**
 * The items of a study in position order, and each item id's rank in that order (the item index every dashboard
 * array is addressed by). Item ids of one study are nearly consecutive (an import inserts them together), so the
 * ranks sit in a flat array over the id range instead of a Map: a lookup per label row stays an array read.
 */
export class ItemIndex {
  readonly n: number;
  private readonly base: number;
  private readonly dense: Int32Array | null;
  private readonly sparse: Map<number, number> | null;

  constructor(readonly ids: readonly number[]) {
    const n = ids.length;
    this.n = n;
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of ids) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    this.base = n ? lo : 0;
    const span = n ? hi - lo + 1 : 0;
    // A flat array as long as it stays within a few times the item count; otherwise (ids spread by interleaved
    // imports of several studies) a Map.
    if (span <= 4 * n + 1024) {
      this.dense = new Int32Array(span).fill(-1);
      for (let i = 0; i < n; i++) this.dense[ids[i] - lo] = i;
      this.sparse = null;
    } else {
      this.dense = null;
      this.sparse = new Map(ids.map((id, i) => [id, i]));
    }
  }

  private ranges: [number, number][] | null = null;
  private rangeSize = 0;

  /** The item ids cut into ranges `[from, to]` of at most `size` items each, in id order (for reads by id range). */
  idRanges(size: number): [number, number][] {
    if (this.ranges && this.rangeSize === size) return this.ranges;
    const sorted = Float64Array.from(this.ids).sort();
    const ranges: [number, number][] = [];
    for (let k = 0; k < sorted.length; k += size) ranges.push([sorted[k], sorted[Math.min(k + size, sorted.length) - 1]]);
    this.rangeSize = size;
    return (this.ranges = ranges);
  }

  /** The rank of item `id`, −1 when it is not an item of the study. */
  of(id: number): number {
    if (this.dense) {
      const k = id - this.base;
      return k >= 0 && k < this.dense.length ? this.dense[k] : -1;
    }
    return this.sparse!.get(id) ?? -1;
  }
}

/**
 * The study's item ids in position order, gold items left out: every reader of the packs (ground truth, the
 * dashboards) skips what is not in the index, so gold items, which are checks and not data (decision 0030), stay out
 * of them all here.
 */
export function readItemIndex(db: Db, studyId: number): ItemIndex {
  return new ItemIndex(dataItemIdsInOrder(db, studyId));
}
