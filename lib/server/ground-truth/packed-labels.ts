import 'server-only';
import type { Db } from '@/db/client';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import type { LabelsFacet } from '@/lib/kinds/facets/labels';
import { type ItemIndex, readItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import { fitPacked } from './model-gold';
import { MODEL, OPEN, decide, isModelRule, outcomeLabel, outcomeProvenance, type GroundTruthRule } from './rule';

/*
 * The one walk over a study's annotation packs (one short string per annotation, `annotation_packs`) for every
 * kind: which slots count (submitted: a pack and no pending review), "the newest revision of a slot wins wherever
 * it appears", who holds each slot, which items carry labels, and the retry with more slots when a slot beyond the
 * plan shows up. The kind's labels facet splits each packed value into unit and label; where the unit goes is the
 * caller's (`place`).
 */

/** The reviewers' counting labels (newest revision of each submitted assignment), unit-major. */
export type PackedReviewerLabels = {
  items: ItemIndex;
  n: number;
  slots: number;
  /** `given[(u * n + i) * slots + s]` = label code of slot s + 1 on unit u for item i (position order), −1 if none. */
  given: Int8Array;
  /** Items whose counting annotations carry at least one label. */
  hasLabels: Uint8Array;
  /** Items with a review still pending. */
  pending: Uint8Array;
  /** `holder[i * slots + s]` = user id of the reviewer whose submitted annotation fills slot s + 1 of item i, 0 if none. */
  holder: Int32Array;
};

/**
 * Where the labels of one pass go. `unitIndex` maps a packed unit to its row in `given` (−1: kept apart by
 * `keepApart`, e.g. a pairwise criterion the caller did not ask for); `forget` drops what was kept apart for a
 * slot whose newer revision came.
 */
export type LabelPlacement = {
  unitIndex(unit: number): number;
  keepApart?(i: number, s: number, unit: number, label: number): void;
  forget?(i: number, s: number): void;
};

/**
 * Reads the packs of `study` into `units` rows per item; `placement(S)` is asked once per pass (a pass with more
 * slots starts afresh). `items` (the study's items in position order) can be passed when the caller has read them.
 */
export function readReviewerPacks<P extends LabelPlacement>(
  db: Db,
  study: StudyRow,
  codec: LabelsFacet,
  units: number,
  placement: (slots: number) => P,
  items?: ItemIndex,
): PackedReviewerLabels & { placement: P } {
  const index = items ?? readItemIndex(db, study.id);
  const pendingRows = packs.pendingSlots(db, study.id);
  let S = Math.max(1, study.reviewersPerItem);
  for (const [, slot] of pendingRows) if (slot > S) S = slot;
  for (;;) {
    const packText = (from: number, to: number) => packs.annotationPackText(db, study.id, from, to);
    const read = walkPacks(packText, codec, units, index, pendingRows, S, placement(S));
    if (typeof read !== 'number') return read;
    S = read; // a slot beyond the plan (the plan changed after the reviews): read again with room for it
  }
}

/**
 * One pass over the pack texts (`packText(from, to)`: the segments of items `from..to`, `db/queries/packs.ts`
 * `annotationPackText`) with `S` slots per item; returns the highest slot seen instead when one exceeds `S`.
 */
export function walkPacks<P extends LabelPlacement>(
  packText: (from: number, to: number) => string,
  codec: LabelsFacet,
  U: number,
  index: ItemIndex,
  pendingRows: [number, number][],
  S: number,
  place: P,
): (PackedReviewerLabels & { placement: P }) | number {
  const n = index.n;
  const pending = new Uint8Array(n);
  const pendingSlot = new Uint8Array(n * S);
  for (const [itemId, slot] of pendingRows) {
    const i = index.of(itemId);
    if (i < 0) continue;
    pending[i] = 1;
    pendingSlot[i * S + slot - 1] = 1;
  }
  const given = new Int8Array(U * n * S).fill(-1);
  const holder = new Int32Array(n * S);
  const revision = new Int32Array(n * S);
  const labelled = new Uint8Array(n * S);
  let beyond = 0;
  for (const [from, to] of itemRanges(index)) {
    const seg = new Segments(packText(from, to));
    const text = seg.text;
    const f = seg.fields;
    // Segments come in no guaranteed order: the highest revision of a slot wins wherever it appears.
    while (seg.next()) {
      const i = index.of(f[0]);
      if (i < 0) continue;
      const slot = f[1];
      if (slot > S) {
        beyond = Math.max(beyond, slot);
        continue;
      }
      const s = slot - 1;
      const k = i * S + s;
      if (pendingSlot[k] || f[2] <= revision[k]) continue;
      if (revision[k] > 0) {
        for (let u = 0; u < U; u++) given[(u * n + i) * S + s] = -1;
        place.forget?.(i, s);
      }
      revision[k] = f[2];
      holder[k] = f[3];
      labelled[k] = seg.end > seg.start ? 1 : 0;
      for (let p = seg.start; p < seg.end; p++) {
        const v = text.charCodeAt(p) - 48;
        const unit = codec.packedUnit(v);
        const label = codec.packedLabel(v);
        const u = place.unitIndex(unit);
        if (u >= 0) given[(u * n + i) * S + s] = label;
        else place.keepApart?.(i, s, unit, label);
      }
    }
  }
  if (beyond) return beyond;
  const hasLabels = new Uint8Array(n);
  for (let k = 0; k < n * S; k++) if (labelled[k]) hasLabels[(k / S) | 0] = 1;
  return { items: index, n, slots: S, given, hasLabels, pending, holder, placement: place };
}

/** Ground truth as codes: `gold[u * n + i]` = label code of item i on unit u, −1 if none. */
export type PackedGold = {
  n: number;
  gold: Int8Array;
  /** Labels placed in `gold` (labels of complete items). */
  labels: number;
  /** Items left out: reviews pending, no labels, or a unit (also one kept apart) with no settled label. */
  incompleteItems: number;
  /** Of `labels`, those decided by a ruling. */
  adjudicated: number;
};

/**
 * The ground truth of every item and unit under the study's rule, for every kind: each unit decided by the rule
 * (`decide`, with the unit's label count and its newest ruling in `ruled[u * n + i]`, `NO_RULING` if none). An item
 * with a pending review, no labels or an open unit is left out entirely and counted in `incompleteItems`;
 * `alsoComplete(i)` lets the caller hold an item back for what it kept apart (false: incomplete). Under a model rule
 * (`dawid_skene`, `mace`) the model is fitted here, once, on every unit, and gives the label where there is no ruling.
 */
export function decideGold(
  read: PackedReviewerLabels,
  units: number,
  ruled: Int8Array,
  rule: GroundTruthRule,
  labelCount: (u: number) => number,
  alsoComplete?: (i: number) => boolean,
): PackedGold {
  const { n, slots: S, given } = read;
  const model = isModelRule(rule) ? fitPacked(rule, read, units, labelCount) : null;
  // Unit by unit (the arrays are unit-major, so this reads them in order): each outcome, and which items some unit
  // leaves open.
  const resolved = new Int8Array(units * n);
  const unresolved = new Uint8Array(n);
  for (let u = 0; u < units; u++) {
    const q = labelCount(u);
    for (let i = 0; i < n; i++) {
      const o = decide(given, (u * n + i) * S, S, ruled[u * n + i], rule, q);
      resolved[u * n + i] = o;
      if (o === OPEN) unresolved[i] = 1;
    }
  }
  // Then item by item: an item counts only when nothing is pending or open.
  const complete = new Uint8Array(n);
  let incompleteItems = 0;
  for (let i = 0; i < n; i++) {
    if (read.pending[i] || !read.hasLabels[i] || unresolved[i] || (alsoComplete && !alsoComplete(i))) incompleteItems++;
    else complete[i] = 1;
  }
  const gold = new Int8Array(units * n).fill(-1);
  let labels = 0;
  let adjudicated = 0;
  for (let k = 0; k < units * n; k++) {
    const o = resolved[k];
    if (!complete[k % n]) continue;
    if (o === MODEL && model && model.label[k] >= 0) {
      gold[k] = model.label[k];
      labels++;
      continue;
    }
    if (o < 0) continue;
    gold[k] = outcomeLabel(o);
    labels++;
    if (outcomeProvenance(o) === 'adjudicated') adjudicated++;
  }
  return { n, gold, labels, incompleteItems, adjudicated };
}
