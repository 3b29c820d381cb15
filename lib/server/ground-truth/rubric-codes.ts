import 'server-only';
import type { Db } from '@/db/client';
import * as packs from '@/db/queries/packs';
import { rubricRulingCodes } from '@/db/queries/rubric-analytics';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import { type ItemIndex, readItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import { NO_RULING, OPEN, decide, outcomeLabel, outcomeProvenance } from './rule';

/*
 * A rubric study's labels as codes for the dashboards (docs/decisions/0010-rubric-labels.md): the reviewers' labels
 * from the annotation packs (one character per label, 48 + 16 · dimension + label), the newest rulings from
 * `rubric_adjudications`, and the ground truth decided by THE rule (`./rule`, `decide` with the dimension's
 * label count). Dimension d is the catalog's d-th dimension; label l its l-th label (worst first).
 */

/** The reviewers' counting labels (newest revision of each submitted assignment), dimension-major. */
export type RubricReviewerCodes = {
  items: ItemIndex;
  n: number;
  /** Number of dimensions. */
  D: number;
  slots: number;
  /** `given[(d * n + i) * slots + s]` = label code of slot s + 1 on dimension d for item i (position order), −1 if none. */
  given: Int8Array;
  /** Items whose counting annotations carry at least one label. */
  hasLabels: Uint8Array;
  /** Items with a review still pending. */
  pending: Uint8Array;
  /** `holder[i * slots + s]` = user id of the reviewer whose submitted annotation fills slot s + 1 of item i, 0 if none. */
  holder: Int32Array;
};

/** Ground truth as codes: `gold[d * n + i]` = label code of item i on dimension d, −1 if none. */
export type RubricGroundTruthCodes = {
  n: number;
  gold: Int8Array;
  /** Labels placed in `gold` (labels of complete items). */
  labels: number;
  /** Items left out: reviews pending, no labels, or a dimension with no agreed, majority or adjudicated label. */
  incompleteItems: number;
  /** Of `labels`, those decided by a ruling. */
  adjudicated: number;
};

/** The study's catalog (fixed once the study exists). */
export const rubricDimensions = (study: StudyRow): RubricDimension[] => (study.criteria ?? []) as RubricDimension[];

/**
 * Reads the study's annotation packs once. A submitted assignment always has an annotation, so the slots holding
 * a pack and no pending review are exactly the submitted ones; of several revisions the highest counts.
 */
export function rubricReviewerCodes(db: Db, study: StudyRow, items?: ItemIndex): RubricReviewerCodes {
  const index = items ?? readItemIndex(db, study.id);
  const D = rubricDimensions(study).length;
  const pendingRows = packs.pendingSlots(db, study.id);
  let S = Math.max(1, study.reviewersPerItem);
  for (;;) {
    const read = readPacks(db, study.id, index, D, pendingRows, S);
    if (typeof read !== 'number') return read;
    S = read; // a slot beyond the plan: read again with room for it
  }
}

function readPacks(
  db: Db,
  studyId: number,
  index: ItemIndex,
  D: number,
  pendingRows: [number, number][],
  S: number,
): RubricReviewerCodes | number {
  const n = index.n;
  for (const [, slot] of pendingRows) if (slot > S) return slot;
  const pending = new Uint8Array(n);
  const pendingSlot = new Uint8Array(n * S);
  for (const [itemId, slot] of pendingRows) {
    const i = index.of(itemId);
    if (i < 0) continue;
    pending[i] = 1;
    pendingSlot[i * S + slot - 1] = 1;
  }
  const given = new Int8Array(D * n * S).fill(-1);
  const holder = new Int32Array(n * S);
  const revision = new Int32Array(n * S);
  const labelled = new Uint8Array(n * S);
  let beyond = 0;
  for (const [from, to] of itemRanges(index)) {
    const seg = new Segments(packs.annotationPackText(db, studyId, from, to));
    const text = seg.text;
    const f = seg.fields;
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
      if (revision[k] > 0) for (let d = 0; d < D; d++) given[(d * n + i) * S + s] = -1;
      revision[k] = f[2];
      holder[k] = f[3];
      labelled[k] = seg.end > seg.start ? 1 : 0;
      for (let p = seg.start; p < seg.end; p++) {
        const v = text.charCodeAt(p) - 48;
        const d = v >> 4;
        if (d < D) given[(d * n + i) * S + s] = v & 15;
      }
    }
  }
  if (beyond) return beyond;
  const hasLabels = new Uint8Array(n);
  for (let k = 0; k < n * S; k++) if (labelled[k]) hasLabels[(k / S) | 0] = 1;
  return { items: index, n, D, slots: S, given, hasLabels, pending, holder };
}

/**
 * The ground truth of every item and dimension under the study's rule: the reviewers' labels (`read`, or read
 * now) and the newest ruling, decided by `decide(…, labelCount)` of the dimension. An item with a pending review,
 * no labels or an open dimension is left out entirely and counted in `incompleteItems`, as for pairwise studies.
 */
export function rubricGroundTruthCodes(db: Db, study: StudyRow, read?: RubricReviewerCodes): RubricGroundTruthCodes {
  const r = read ?? rubricReviewerCodes(db, study);
  const { n, D, slots: S, given, items } = r;
  const dims = rubricDimensions(study);
  const ruled = new Int8Array(D * n).fill(NO_RULING);
  for (const [from, to] of itemRanges(items)) {
    for (const code of rubricRulingCodes(db, from, to)) {
      const low = code % 1024;
      const i = items.of((code - low) / 1024);
      const d = low >> 4;
      if (i >= 0 && d < D) ruled[d * n + i] = low & 15;
    }
  }
  const rule = study.groundTruthRule;
  const resolved = new Int8Array(D * n);
  const unresolved = new Uint8Array(n);
  for (let d = 0; d < D; d++) {
    const q = dims[d].labels.length;
    for (let i = 0; i < n; i++) {
      const o = decide(given, (d * n + i) * S, S, ruled[d * n + i], rule, q);
      resolved[d * n + i] = o;
      if (o === OPEN) unresolved[i] = 1;
    }
  }
  const complete = new Uint8Array(n);
  let incompleteItems = 0;
  for (let i = 0; i < n; i++) {
    if (r.pending[i] || !r.hasLabels[i] || unresolved[i]) incompleteItems++;
    else complete[i] = 1;
  }
  const gold = new Int8Array(D * n).fill(-1);
  let labels = 0;
  let adjudicated = 0;
  for (let k = 0; k < D * n; k++) {
    const o = resolved[k];
    if (o < 0 || !complete[k % n]) continue;
    gold[k] = outcomeLabel(o);
    labels++;
    if (outcomeProvenance(o) === 'adjudicated') adjudicated++;
  }
  return { n, gold, labels, incompleteItems, adjudicated };
}
