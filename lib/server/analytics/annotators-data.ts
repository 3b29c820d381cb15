import 'server-only';
import type { Db } from '@/db/client';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import { pairwiseLabels } from '@/lib/kinds/pairwise/labels';
import { LABELS, type StudyKind } from '@/lib/validation/labels';
import { codeMap } from '../ground-truth/ground-truth';
import { rubricDimensions, rubricGroundTruthCodes } from '../ground-truth/rubric-codes';
import { readItemIndex, type ItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import { rubricRulingCodes } from '@/db/queries/analytics';
import { rubricLabels } from '@/lib/kinds/rubric/labels';
import { loadFrame, loadGold } from './data';

/*
 * What the annotator quality report needs of a kind of study, in one shape: the units labels are given on (a
 * pairwise study's criteria, a rubric study's dimensions) with their label sets, which unit a packed label is on,
 * the ground truth (from the ground-truth core, so the study's rule and its exclusions apply) and the newest
 * rulings, both unit-major (`[u * n + i]`, −1 where none). A kind without labels has no entry.
 */

export type AnnotatorUnits = {
  items: ItemIndex;
  units: { id: string; labels: readonly string[] }[];
  /** The unit of a packed unit value (the labels facet's `packedUnit`), −1 for one outside the study's units. */
  unitOf: (packedUnit: number) => number;
  gold: Int8Array;
  rulings: Int8Array;
  /** Labels are lose/tie/win from reply a's side, shown in a stored order: the reviewer's position bias is defined. */
  pairwiseOrder: boolean;
};

function pairwiseUnits(db: Db, study: StudyRow): AnnotatorUnits {
  const frame = loadFrame(db, study);
  const { n, items, criterionIds } = frame;
  const codes = codeMap(db, study.id, criterionIds);
  const rulings = new Int8Array(criterionIds.length * n).fill(-1);
  for (const [from, to] of itemRanges(items)) {
    const seg = new Segments(packs.adjudicationPackText(db, study.id, from, to));
    while (seg.next()) {
      const i = items.of(seg.fields[0]);
      if (i < 0) continue;
      for (let p = seg.start; p < seg.end; p++) {
        const v = seg.text.charCodeAt(p) - 48;
        const c = codes.indexOf(pairwiseLabels.packedUnit(v));
        if (c >= 0) rulings[c * n + i] = pairwiseLabels.packedLabel(v);
      }
    }
  }
  return {
    items,
    units: criterionIds.map((id) => ({ id, labels: LABELS })),
    unitOf: (code) => codes.indexOf(code),
    gold: loadGold(db, frame).gold,
    rulings,
    pairwiseOrder: true,
  };
}

function rubricUnits(db: Db, study: StudyRow): AnnotatorUnits {
  const dims = rubricDimensions(study);
  const items = readItemIndex(db, study.id);
  const D = dims.length;
  const n = items.n;
  const rulings = new Int8Array(D * n).fill(-1);
  // In item, dimension and revision order: the last value read is the newest ruling.
  for (const [from, to] of itemRanges(items)) {
    for (const code of rubricRulingCodes(db, from, to)) {
      const low = code % 1024;
      const i = items.of((code - low) / 1024);
      const d = rubricLabels.packedUnit(low);
      if (i >= 0 && d < D) rulings[d * n + i] = rubricLabels.packedLabel(low);
    }
  }
  return {
    items,
    units: dims.map((d) => ({ id: d.id, labels: d.labels })),
    unitOf: (d) => (d < D ? d : -1),
    gold: rubricGroundTruthCodes(db, study).gold,
    rulings,
    pairwiseOrder: false,
  };
}

/** Each kind's units; null for a kind without labels (the table names every kind). */
export const ANNOTATOR_UNITS: Record<StudyKind, ((db: Db, study: StudyRow) => AnnotatorUnits) | null> = {
  flow_review: null,
  pairwise: pairwiseUnits,
  rubric: rubricUnits,
};
