import 'server-only';
import type { Db } from '@/db/client';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import { type ItemIndex, readItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import { NO_RULING, OPEN, decide, outcomeLabel, outcomeProvenance } from './rule';

/** Ground truth as codes for the dashboards: the same rules as `groundTruth`, without an object per label. */
export type GroundTruthCodes = {
  /** Number of items of the study; item index = rank in position order (as `lib/server/analytics/data.ts` `loadFrame`). */
  n: number;
  /** Criterion-major: `gold[c * n + i]` = code of the label (index in lose, tie, win) of item i on `criterionIds[c]`, −1 if none. */
  gold: Int8Array;
  /** Labels placed in `gold` (labels of complete items on the given criteria). */
  labels: number;
  /** Items left out: reviews pending, no labels, or a criterion with no agreed, adjudicated or majority label. */
  incompleteItems: number;
  /** Labels of complete items on every criterion, also those not in `criterionIds` (what `groundTruth` yields). */
  allLabels: number;
  /** Of `allLabels`, those decided by an adjudication. */
  adjudicated: number;
};

/**
 * The study's criterion codes (`criterion_codes`) mapped to the caller's criteria. The dictionary is read again
 * when a pack holds a code it does not know yet (a criterion first used by a write that landed during the read).
 */
export class CodeMap {
  /** `index[code]` = index in `criterionIds`, −1 for a criterion outside them. */
  private index = new Int32Array(0);
  private names: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly studyId: number,
    private readonly criterionIds: readonly string[],
  ) {
    this.load();
  }

  private load() {
    this.names = packs.criterionNames(this.db, this.studyId);
    const position = new Map(this.criterionIds.map((c, k) => [c, k]));
    this.index = new Int32Array(this.names.length).fill(-1);
    this.names.forEach((name, code) => (this.index[code] = position.get(name) ?? -1));
  }

  /** The index in `criterionIds` of the criterion with this code, −1 for another criterion (see `name`). */
  indexOf(code: number): number {
    if (code >= this.index.length) this.load();
    return code < this.index.length ? this.index[code] : -1;
  }

  /** The criterion with this code. */
  name(code: number): string {
    if (code >= this.names.length) this.load();
    return this.names[code] ?? `#${code}`;
  }
}

export const codeMap = (db: Db, studyId: number, criterionIds: readonly string[]) => new CodeMap(db, studyId, criterionIds);

/**
 * The reviewers' counting labels (newest revision of each submitted assignment) as codes, read once for both the
 * ground truth and the agreement statistics. `given[(c * n + i) * slots + s]` = label code of slot s + 1 on
 * `criterionIds[c]` for item i (items in position order), −1 if none; labels on other criteria are kept apart in
 * `other` (item index → criterion → codes by slot), because they still decide whether an item is complete.
 */
export type ReviewerCodes = {
  criterionIds: readonly string[];
  items: ItemIndex;
  n: number;
  slots: number;
  given: Int8Array;
  /** Items whose counting annotations carry at least one label. */
  hasLabels: Uint8Array;
  /** Items with a review still pending. */
  pending: Uint8Array;
  /** `holder[i * slots + s]` = user id of the reviewer whose submitted annotation fills slot s + 1 of item i, 0 if none. */
  holder: Int32Array;
  other: Map<number, Map<string, Int8Array>>;
};

/**
 * Reads the study's annotation packs (one short string per annotation, `annotation_packs`) instead of a row per
 * label. `items` (the study's items in position order) can be passed when the caller has read them already.
 * A submitted assignment always has an annotation (submitting and importing write both in one transaction), so
 * the slots holding a pack and no pending review are exactly the submitted ones.
 */
export function reviewerCodes(db: Db, study: StudyRow, criterionIds: readonly string[], items?: ItemIndex): ReviewerCodes {
  const index = items ?? readItemIndex(db, study.id);
  const codes = codeMap(db, study.id, criterionIds);
  const pendingRows = packs.pendingSlots(db, study.id);
  let S = Math.max(1, study.reviewersPerItem);
  for (const [, slot] of pendingRows) if (slot > S) S = slot;
  for (;;) {
    const read = readPacks(db, study, criterionIds, index, codes, pendingRows, S);
    if (typeof read !== 'number') return read;
    S = read; // a slot beyond the plan (the plan changed after the reviews): read again with room for it
  }
}

/** One pass over the packs with `S` slots per item; returns the highest slot seen instead when one exceeds `S`. */
function readPacks(
  db: Db,
  study: StudyRow,
  criterionIds: readonly string[],
  index: ItemIndex,
  codes: CodeMap,
  pendingRows: [number, number][],
  S: number,
): ReviewerCodes | number {
  const n = index.n;
  const C = criterionIds.length;
  const pending = new Uint8Array(n);
  const pendingSlot = new Uint8Array(n * S);
  for (const [itemId, slot] of pendingRows) {
    const i = index.of(itemId);
    if (i < 0) continue;
    pending[i] = 1;
    pendingSlot[i * S + slot - 1] = 1;
  }
  const given = new Int8Array(C * n * S).fill(-1);
  const other = new Map<number, Map<string, Int8Array>>();
  const holder = new Int32Array(n * S);
  const revision = new Int32Array(n * S);
  const labelled = new Uint8Array(n * S);

  /** Forgets the labels of slot s of item i (a newer revision of it came). */
  const clear = (i: number, s: number) => {
    for (let c = 0; c < C; c++) given[(c * n + i) * S + s] = -1;
    for (const slots of other.get(i)?.values() ?? []) slots[s] = -1;
  };

  let beyond = 0;
  for (const [from, to] of itemRanges(index)) {
    const seg = new Segments(packs.annotationPackText(db, study.id, from, to));
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
      if (revision[k] > 0) clear(i, s);
      revision[k] = f[2];
      holder[k] = f[3];
      labelled[k] = seg.end > seg.start ? 1 : 0;
      for (let p = seg.start; p < seg.end; p++) {
        const v = text.charCodeAt(p) - 48;
        const code = (v / 3) | 0;
        const label = v - 3 * code;
        const c = codes.indexOf(code);
        if (c >= 0) {
          given[(c * n + i) * S + s] = label;
          continue;
        }
        const name = codes.name(code);
        let byCriterion = other.get(i);
        if (!byCriterion) other.set(i, (byCriterion = new Map()));
        let slots = byCriterion.get(name);
        if (!slots) byCriterion.set(name, (slots = new Int8Array(S).fill(-1)));
        slots[s] = label;
      }
    }
  }
  if (beyond) return beyond;

  const hasLabels = new Uint8Array(n);
  for (let k = 0; k < n * S; k++) if (labelled[k]) hasLabels[(k / S) | 0] = 1;
  return { criterionIds, items: index, n, slots: S, given, hasLabels, pending, holder, other };
}

/**
 * `groundTruth` as a code array, for the dashboards over a million labels: the reviewers' packed labels
 * (`reviewerCodes`) and the packed newest rulings (`adjudication_packs`). Pass `read` to reuse a `reviewerCodes`
 * read. Each criterion is decided by the ground-truth rule (`./rule`) with the newest ruling; an item with a
 * pending review, no labels or an open criterion (also one outside `criterionIds`) is left out entirely and
 * counted in `incompleteItems`.
 */
export function groundTruthCodes(db: Db, study: StudyRow, criterionIds: readonly string[], read?: ReviewerCodes): GroundTruthCodes {
  const sameCriteria = (r: ReviewerCodes) =>
    r.criterionIds.length === criterionIds.length && r.criterionIds.every((c, k) => c === criterionIds[k]);
  const {
    n,
    slots: S,
    given,
    hasLabels,
    pending,
    other,
    items,
  } = read && sameCriteria(read) ? read : reviewerCodes(db, study, criterionIds, read?.items);
  const C = criterionIds.length;

  // The newest ruling of each item and criterion; rulings on criteria outside `criterionIds` by item and name.
  const codes = codeMap(db, study.id, criterionIds);
  const ruled = new Int8Array(C * n).fill(-1);
  const otherRuled = new Map<number, Map<string, number>>();
  for (const [from, to] of itemRanges(items)) {
    const seg = new Segments(packs.adjudicationPackText(db, study.id, from, to));
    const text = seg.text;
    while (seg.next()) {
      const i = items.of(seg.fields[0]);
      if (i < 0) continue;
      for (let p = seg.start; p < seg.end; p++) {
        const v = text.charCodeAt(p) - 48;
        const code = (v / 3) | 0;
        const c = codes.indexOf(code);
        if (c >= 0) {
          ruled[c * n + i] = v - 3 * code;
        } else {
          let byName = otherRuled.get(i);
          if (!byName) otherRuled.set(i, (byName = new Map()));
          byName.set(codes.name(code), v - 3 * code);
        }
      }
    }
  }

  const rule = study.groundTruthRule;
  // Criterion by criterion (the arrays are criterion-major, so this reads them in order): each resolved code,
  // and which items some criterion leaves unresolved.
  const resolved = new Int8Array(C * n);
  const unresolved = new Uint8Array(n);
  for (let c = 0; c < C; c++) {
    for (let i = 0; i < n; i++) {
      const r = decide(given, (c * n + i) * S, S, ruled[c * n + i], rule);
      resolved[c * n + i] = r;
      if (r === OPEN) unresolved[i] = 1;
    }
  }
  // Then item by item: an item counts only when nothing is pending or unresolved, on other criteria too.
  const complete = new Uint8Array(n);
  let incompleteItems = 0;
  let allLabels = 0;
  let adjudicated = 0;
  items: for (let i = 0; i < n; i++) {
    if (pending[i] || !hasLabels[i] || unresolved[i]) {
      incompleteItems++;
      continue;
    }
    const extra = other.get(i);
    if (extra) {
      const rulings = otherRuled.get(i);
      let extraLabels = 0;
      let extraAdjudicated = 0;
      for (const [name, slots] of extra) {
        const r = decide(slots, 0, S, rulings?.get(name) ?? NO_RULING, rule);
        if (r === OPEN) {
          incompleteItems++;
          continue items;
        }
        if (r >= 0) extraLabels++;
        if (outcomeProvenance(r) === 'adjudicated') extraAdjudicated++;
      }
      allLabels += extraLabels;
      adjudicated += extraAdjudicated;
    }
    complete[i] = 1;
  }
  const gold = new Int8Array(C * n).fill(-1);
  let labels = 0;
  for (let c = 0; c < C; c++) {
    for (let i = 0; i < n; i++) {
      const r = resolved[c * n + i];
      if (r < 0 || !complete[i]) continue;
      gold[c * n + i] = outcomeLabel(r);
      labels++;
      if (outcomeProvenance(r) === 'adjudicated') adjudicated++;
    }
  }
  allLabels += labels;
  return { n, gold, labels, incompleteItems, allLabels, adjudicated };
}
