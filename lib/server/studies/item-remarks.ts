import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import * as remarksQ from '@/db/queries/remarks';
import type { ItemRemarksDto } from './dto';

/*
 * Reviewers' flags and comments as an item's leads see them, for the item pages and the items lists of every kind.
 * Only staff pages call these: a reviewer sees their own remarks through the review screen, never another's.
 */

export const NO_REMARKS: ItemRemarksDto = { flagReason: null, flaggedAt: null, comment: null };

/** Each reviewer's flag and comment on one item, by assignment slot. */
export function itemRemarksBySlot(db: Db, itemId: number): Map<number, ItemRemarksDto> {
  return new Map(
    remarksQ
      .remarksOfItem(db, itemId)
      .map((r) => [
        r.slot,
        { flagReason: r.flagReason, flaggedAt: r.flaggedAt === null ? null : new Date(r.flaggedAt).toISOString(), comment: r.comment },
      ]),
  );
}

/** The items of the study with a reviewer's flag on them. */
export function flaggedItems(db: Db, studyId: number): Set<number> {
  return new Set(remarksQ.flaggedItemIds(db, studyId));
}

/** "Only flagged items": `1`/`true` as the page's URL carries it; anything else is refused. */
export const flaggedFilter = z.preprocess(
  (v) =>
    v === '' || v === undefined
      ? undefined
      : v === '1' || v === 'true' || v === true
        ? true
        : v === '0' || v === 'false' || v === false
          ? false
          : v,
  z.boolean({ error: 'must be 1 (only flagged items) or empty' }).optional(),
);
