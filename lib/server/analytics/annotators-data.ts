import 'server-only';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import { pairwiseLabels } from '@/lib/kinds/pairwise/labels';
import { LABELS, type StudyKind } from '@/lib/validation/labels';
import { codeMap } from '../ground-truth/ground-truth';
import { rubricDimensions, rubricGroundTruthCodes } from '../ground-truth/rubric-codes';
import { readItemIndex, type ItemIndex } from '../packs/item-index';
import { pairwiseRulings, readRulings, rubricRulings } from '../ground-truth/packed-rulings';
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
  const { items, criterionIds } = frame;
  const codes = codeMap(db, study.id, criterionIds);
  const rulings = readRulings(db, study, pairwiseRulings, pairwiseLabels, items, criterionIds.length, (code) => codes.indexOf(code));
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
  const rulings = readRulings(db, study, rubricRulings, rubricLabels, items, D, (d) => (d < D ? d : -1));
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
