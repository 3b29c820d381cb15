import 'server-only';
import { BODY, FIELD, SEGMENT } from '@/db/queries/packs';
import type { ItemIndex } from './item-index';

/** Items per read of packed labels: bounds the text SQLite builds at once (about 10 characters per label). */
const ITEMS_PER_READ = 50_000;

/** The index's item ids cut into ranges `[from, to]` of at most `size` items each, for `db/queries/packs.ts`. */
export function itemRanges(index: ItemIndex, size = ITEMS_PER_READ): [number, number][] {
  return index.idRanges(size);
}

/**
 * A cursor over the segments of a pack text (`db/queries/packs.ts`): after each `next()`, `fields` holds the
 * segment's numbers (item id first) and `[start, end)` the place of its packed labels in `text`.
 */
export class Segments {
  readonly fields = [0, 0, 0, 0];
  start = 0;
  end = 0;

  constructor(readonly text: string) {}

  next(): boolean {
    const text = this.text;
    const len = text.length;
    let k = this.end;
    if (k >= len) return false;
    k++; // the segment marker
    let f = 0;
    let v = 0;
    for (;;) {
      const ch = text.charCodeAt(k++);
      if (ch === BODY) break;
      if (ch === FIELD) {
        this.fields[f++] = v;
        v = 0;
      } else v = v * 10 + ch - 48;
    }
    this.fields[f] = v;
    this.start = k;
    while (k < len && text.charCodeAt(k) !== SEGMENT) k++;
    this.end = k;
    return true;
  }
}
