import 'server-only';
import type { Db } from '@/db/client';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import { pairwiseLabels } from '@/lib/kinds/pairwise/labels';
import { LABELS } from '@/lib/validation/labels';
import type { ItemIndex } from '../packs/item-index';
import { decideGold, readReviewerPacks, type PackedReviewerLabels } from './packed-labels';
import { pairwiseRulings, readRulings } from './packed-rulings';
import { MODEL, NO_RULING, OPEN, decide, outcomeProvenance } from './rule';

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
export type ReviewerCodes = PackedReviewerLabels & {
  criterionIds: readonly string[];
  other: Map<number, Map<string, Int8Array>>;
};

/**
 * Reads the study's annotation packs with the one walk (`./packed-labels`): labels on `criterionIds` in `given`,
 * those on other criteria kept apart in `other`. `items` (the study's items in position order) can be passed when
 * the caller has read them already.
 */
export function reviewerCodes(db: Db, study: StudyRow, criterionIds: readonly string[], items?: ItemIndex): ReviewerCodes {
  const codes = codeMap(db, study.id, criterionIds);
  const { placement, ...read } = readReviewerPacks(
    db,
    study,
    pairwiseLabels,
    criterionIds.length,
    (S) => {
      const other = new Map<number, Map<string, Int8Array>>();
      return {
        other,
        unitIndex: (code: number) => codes.indexOf(code),
        keepApart(i: number, s: number, code: number, label: number) {
          const name = codes.name(code);
          let byCriterion = other.get(i);
          if (!byCriterion) other.set(i, (byCriterion = new Map()));
          let slots = byCriterion.get(name);
          if (!slots) byCriterion.set(name, (slots = new Int8Array(S).fill(-1)));
          slots[s] = label;
        },
        forget(i: number, s: number) {
          for (const slots of other.get(i)?.values() ?? []) slots[s] = -1;
        },
      };
    },
    items,
  );
  return { criterionIds, ...read, other: placement.other };
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
  const reviewers = read && sameCriteria(read) ? read : reviewerCodes(db, study, criterionIds, read?.items);
  const { n, slots: S, other, items } = reviewers;
  const C = criterionIds.length;

  // The newest ruling of each item and criterion; rulings on criteria outside `criterionIds` by item and name.
  const codes = codeMap(db, study.id, criterionIds);
  const otherRuled = new Map<number, Map<string, number>>();
  const ruled = readRulings(
    db,
    study,
    pairwiseRulings,
    pairwiseLabels,
    items,
    C,
    (code) => codes.indexOf(code),
    (i, code, label) => {
      let byName = otherRuled.get(i);
      if (!byName) otherRuled.set(i, (byName = new Map()));
      byName.set(codes.name(code), label);
    },
  );

  const rule = study.groundTruthRule;
  // Criteria outside `criterionIds` still decide whether an item is complete, and count in `allLabels`.
  let extraLabels = 0;
  let extraAdjudicated = 0;
  const alsoComplete = (i: number) => {
    const extra = other.get(i);
    if (!extra) return true;
    const rulings = otherRuled.get(i);
    let itemLabels = 0;
    let itemAdjudicated = 0;
    for (const [name, slots] of extra) {
      const r = decide(slots, 0, S, rulings?.get(name) ?? NO_RULING, rule);
      if (r === OPEN) return false;
      // Under a model rule these criteria count too; their model label is the export's (`groundTruth`).
      if (r >= 0 || r === MODEL) itemLabels++;
      if (outcomeProvenance(r) === 'adjudicated') itemAdjudicated++;
    }
    extraLabels += itemLabels;
    extraAdjudicated += itemAdjudicated;
    return true;
  };
  const { gold, labels, incompleteItems, adjudicated } = decideGold(reviewers, C, ruled, rule, () => LABELS.length, alsoComplete);
  return { n, gold, labels, incompleteItems, allLabels: labels + extraLabels, adjudicated: adjudicated + extraAdjudicated };
}
