import 'server-only';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';

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

/** Items with a review still pending, by item index (an assignment's study is its item's: a trigger checks it). */
export function pendingItems(db: Db, study: StudyRow, n: number, indexOf: Map<number, number>): Uint8Array {
  const pending = new Uint8Array(n);
  for (const itemId of db.$client
    .prepare("SELECT DISTINCT item_id FROM assignments WHERE study_id = ? AND state = 'pending'")
    .pluck()
    .iterate(study.id) as IterableIterator<number>) {
    const i = indexOf.get(itemId);
    if (i !== undefined) pending[i] = 1;
  }
  return pending;
}

const GT_LABEL_CODE = (column: string) => `(CASE ${column} WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)`;

/**
 * The reviewers' counting labels (newest revision of each submitted assignment) as codes, read once for both the
 * ground truth and the agreement statistics. `given[(c * n + i) * slots + s]` = label code of slot s + 1 on
 * `criterionIds[c]` for item i (items in position order), −1 if none; labels on other criteria are kept apart in
 * `other` (item index → criterion → codes by slot), because they still decide whether an item is complete.
 */
export type ReviewerCodes = {
  criterionIds: readonly string[];
  itemIds: number[];
  externalIds: string[];
  indexOf: Map<number, number>;
  n: number;
  slots: number;
  given: Int8Array;
  hasLabels: Uint8Array;
  other: Map<number, Map<string, Int8Array>>;
};

export function reviewerCodes(db: Db, study: StudyRow, criterionIds: readonly string[]): ReviewerCodes {
  const sqlite = db.$client;
  const C = criterionIds.length;
  if (48 + 3 * C > 0xd7ff) throw new Error(`Ground truth codes support up to ${Math.floor((0xd7ff - 48) / 3)} criteria.`);
  const itemRows = sqlite.prepare('SELECT id, external_id FROM items WHERE study_id = ? ORDER BY position').raw().all(study.id) as [
    number,
    string,
  ][];
  const n = itemRows.length;
  const itemIds = itemRows.map((r) => r[0]);
  const externalIds = itemRows.map((r) => r[1]);
  const indexOf = new Map<number, number>();
  for (let i = 0; i < n; i++) indexOf.set(itemIds[i], i);
  const maxSlot = (sqlite.prepare('SELECT max(slot) FROM assignments WHERE study_id = ?').pluck().get(study.id) as number | null) ?? 0;
  const S = Math.max(1, study.reviewersPerItem, maxSlot);

  // Reviewers' labels by criterion, item and slot (−1 = none); labels on criteria outside `criterionIds` aside.
  // Each known (criterion, label) maps straight to its character through bound parameters: no function calls.
  const params: Record<string, string | number> = { studyId: study.id };
  const branches = criterionIds.map((c, k) => {
    params[`c${k}`] = c;
    for (let q = 0; q < 3; q++) params[`k${k}_${q}`] = String.fromCharCode(48 + 3 * k + q);
    return `WHEN @c${k} THEN (CASE l.label WHEN 'lose' THEN @k${k}_0 WHEN 'tie' THEN @k${k}_1 ELSE @k${k}_2 END)`;
  });
  const packedLabel = `(CASE l.criterion ${branches.join(' ')}
      ELSE char(1) || l.criterion || char(2) || (CASE l.label WHEN 'lose' THEN '0' WHEN 'tie' THEN '1' ELSE '2' END) END)`;
  const given = new Int8Array(C * n * S).fill(-1);
  const hasLabels = new Uint8Array(n);
  const other = new Map<number, Map<string, Int8Array>>();
  const rows = sqlite
    .prepare(
      `SELECT a.item_id, a.slot, (SELECT group_concat(${packedLabel}, '') FROM labels l WHERE l.annotation_id = an.id)
         FROM assignments a
         JOIN annotations an ON an.assignment_id = a.id
          AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
        WHERE a.study_id = @studyId AND a.state = 'submitted'`,
    )
    .raw()
    .iterate(params) as IterableIterator<[number, number, string | null]>;
  for (const [itemId, slot, packed] of rows) {
    const i = indexOf.get(itemId);
    if (packed === null || i === undefined) continue;
    hasLabels[i] = 1;
    const s = slot - 1;
    for (let k = 0; k < packed.length; k++) {
      const ch = packed.charCodeAt(k);
      if (ch === 1) {
        const end = packed.indexOf('\u0002', k + 1);
        const name = packed.slice(k + 1, end);
        const label = packed.charCodeAt(end + 1) - 48;
        k = end + 1;
        let byCriterion = other.get(i);
        if (!byCriterion) other.set(i, (byCriterion = new Map()));
        let slots = byCriterion.get(name);
        if (!slots) byCriterion.set(name, (slots = new Int8Array(S).fill(-1)));
        slots[s] = label;
        continue;
      }
      const v = ch - 48;
      const c = Math.floor(v / 3);
      given[(c * n + i) * S + s] = v - 3 * c;
    }
  }

  return { criterionIds, itemIds, externalIds, indexOf, n, slots: S, given, hasLabels, other };
}

/**
 * `groundTruth` as a code array, for the dashboards over a million labels. The labels of each counting annotation
 * come back packed in one string (one character per label: code − 48 = 3 · criterion index + label code; a
 * criterion not in `criterionIds` is spelled out between \u0001 and \u0002 so it still decides whether its item is
 * complete; `reviewerCodes`). Pass `read` to reuse a `reviewerCodes` read. Rules as in `resolveItem`: agreed → that label; else the newest adjudication; else, under the
 * majority rule, the strict majority; an item with a pending review, no labels or an unresolved criterion is
 * left out entirely and counted in `incompleteItems`.
 */
export function groundTruthCodes(db: Db, study: StudyRow, criterionIds: readonly string[], read?: ReviewerCodes): GroundTruthCodes {
  const sameCriteria = (r: ReviewerCodes) =>
    r.criterionIds.length === criterionIds.length && r.criterionIds.every((c, k) => c === criterionIds[k]);
  const { n, slots: S, given, hasLabels, other, indexOf } = read && sameCriteria(read) ? read : reviewerCodes(db, study, criterionIds);
  const sqlite = db.$client;
  const C = criterionIds.length;
  const critIndex = new Map(criterionIds.map((c, k) => [c, k]));

  const pending = pendingItems(db, study, n, indexOf);

  // The newest adjudication of each item and criterion (the highest revision wins; no correlated subquery).
  const ruled = new Int8Array(C * n).fill(-1);
  const ruledRevision = new Int32Array(C * n);
  const otherRuled = new Map<string, [revision: number, label: number]>();
  for (const [itemId, criterion, revision, label] of sqlite
    .prepare(
      `SELECT j.item_id, j.criterion, j.revision, ${GT_LABEL_CODE('j.label')}
         FROM adjudications j JOIN items i ON i.id = j.item_id WHERE i.study_id = ?`,
    )
    .raw()
    .iterate(study.id) as IterableIterator<[number, string, number, number]>) {
    const i = indexOf.get(itemId)!;
    const c = critIndex.get(criterion);
    if (c !== undefined) {
      if (revision > ruledRevision[c * n + i] || ruled[c * n + i] < 0) {
        ruled[c * n + i] = label;
        ruledRevision[c * n + i] = revision;
      }
    } else {
      const key = `${i}:${criterion}`;
      const prior = otherRuled.get(key);
      if (!prior || revision > prior[0]) otherRuled.set(key, [revision, label]);
    }
  }

  const majority = study.groundTruthRule === 'majority';
  const counts = new Int32Array(3);
  /**
   * The resolved code of one criterion of one item from its slots' labels, −1 if unresolved, −2 if unlabelled;
   * 3 + code when the adjudication decided it.
   */
  const resolve = (labels: Int8Array, offset: number, ruling: number): number => {
    counts.fill(0);
    let total = 0;
    for (let s = 0; s < S; s++) {
      const l = labels[offset + s];
      if (l >= 0) {
        counts[l]++;
        total++;
      }
    }
    if (total === 0) return -2;
    for (let q = 0; q < 3; q++) if (counts[q] === total) return q;
    if (ruling >= 0) return 3 + ruling;
    if (majority) for (let q = 0; q < 3; q++) if (counts[q] * 2 > total) return q;
    return -1;
  };

  const gold = new Int8Array(C * n).fill(-1);
  const resolved = new Int8Array(C);
  let labels = 0;
  let incompleteItems = 0;
  let allLabels = 0;
  let adjudicated = 0;
  items: for (let i = 0; i < n; i++) {
    if (pending[i] || !hasLabels[i]) {
      incompleteItems++;
      continue;
    }
    for (let c = 0; c < C; c++) {
      const r = resolve(given, (c * n + i) * S, ruled[c * n + i]);
      if (r === -1) {
        incompleteItems++;
        continue items;
      }
      resolved[c] = r;
    }
    const extra = other.get(i);
    if (extra) {
      for (const [name, slots] of extra) {
        const r = resolve(slots, 0, otherRuled.get(`${i}:${name}`)?.[1] ?? -1);
        if (r === -1) {
          incompleteItems++;
          continue items;
        }
        if (r >= 0) allLabels++;
        if (r >= 3) adjudicated++;
      }
    }
    for (let c = 0; c < C; c++) {
      const r = resolved[c];
      if (r >= 0) {
        gold[c * n + i] = r >= 3 ? r - 3 : r;
        labels++;
        allLabels++;
        if (r >= 3) adjudicated++;
      }
    }
  }
  return { n, gold, labels, incompleteItems, allLabels, adjudicated };
}
