import 'server-only';
import type { Db } from '@/db/client';
import { rubricRulingCodes } from '@/db/queries/analytics';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import type { LabelsFacet } from '@/lib/kinds/facets/labels';
import type { ItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import { NO_RULING } from './rule';

/*
 * The one walk over a study's newest rulings for every kind, beside the one over the reviewers' packs
 * (`./packed-labels`): where the rulings are stored differs by kind (a pairwise study's in `adjudication_packs`,
 * a rubric study's in `rubric_adjudications`), how a packed value splits into unit and label is the kind's labels
 * facet, and where the unit goes is the caller's.
 */

/**
 * Where a kind's rulings are read from: `each(itemId, packedValue)` for the rulings on items `from..to` (ids), the
 * newest ruling of an item and unit coming last, so that the last value read wins. Items of other studies may come
 * too: the walk keeps only the index's.
 */
export type RulingSource = (db: Db, study: StudyRow, from: number, to: number, each: (itemId: number, value: number) => void) => void;

/** A pairwise study's rulings: the adjudication packs hold only the newest ruling per item and criterion. */
export const pairwiseRulings: RulingSource = (db, study, from, to, each) => {
  const seg = new Segments(packs.adjudicationPackText(db, study.id, from, to));
  while (seg.next()) for (let p = seg.start; p < seg.end; p++) each(seg.fields[0], seg.text.charCodeAt(p) - 48);
};

/** A rubric study's rulings: every revision, in item, dimension and revision order (so the newest comes last). */
export const rubricRulings: RulingSource = (db, _study, from, to, each) => {
  for (const code of rubricRulingCodes(db, from, to)) {
    const value = code % 1024;
    each((code - value) / 1024, value);
  }
};

/**
 * The newest ruling of every item and unit, unit-major: `ruled[u * n + i]` = label code, `NO_RULING` if none.
 * `unitIndex` maps a packed unit to its row (−1: not one of the caller's units, handed to `keepApart` if given).
 */
export function readRulings(
  db: Db,
  study: StudyRow,
  source: RulingSource,
  codec: LabelsFacet,
  items: ItemIndex,
  units: number,
  unitIndex: (unit: number) => number,
  keepApart?: (i: number, unit: number, label: number) => void,
): Int8Array {
  const n = items.n;
  const ruled = new Int8Array(units * n).fill(NO_RULING);
  const place = (itemId: number, value: number) => {
    const i = items.of(itemId);
    if (i < 0) return;
    const unit = codec.packedUnit(value);
    const u = unitIndex(unit);
    if (u >= 0) ruled[u * n + i] = codec.packedLabel(value);
    else keepApart?.(i, unit, codec.packedLabel(value));
  };
  for (const [from, to] of itemRanges(items)) source(db, study, from, to, place);
  return ruled;
}
