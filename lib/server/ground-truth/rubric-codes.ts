import 'server-only';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import { rubricLabels } from '@/lib/kinds/rubric/labels';
import type { ItemIndex } from '../packs/item-index';
import { decideGold, readReviewerPacks, type PackedGold, type PackedReviewerLabels } from './packed-labels';
import { readRulings, rubricRulings } from './packed-rulings';

/*
 * A rubric study's labels as codes for the dashboards (docs/decisions/0010-rubric-labels.md): the reviewers' labels
 * from the annotation packs (one character per label, 48 + 16 · dimension + label), the newest rulings from
 * `rubric_adjudications`, and the ground truth decided by THE rule (`./rule`, `decide` with the dimension's
 * label count). Dimension d is the catalog's d-th dimension; label l its l-th label (worst first).
 */

/** The reviewers' counting labels (newest revision of each submitted assignment), dimension-major; `D` dimensions. */
export type RubricReviewerCodes = PackedReviewerLabels & { D: number };

/** Ground truth as codes: `gold[d * n + i]` = label code of item i on dimension d, −1 if none. */
export type RubricGroundTruthCodes = PackedGold;

/** The study's catalog (fixed once the study exists). */
export const rubricDimensions = (study: StudyRow): RubricDimension[] => (study.criteria ?? []) as RubricDimension[];

/** Reads the study's annotation packs once, with the one walk (`./packed-labels`); a dimension beyond the catalog is ignored. */
export function rubricReviewerCodes(db: Db, study: StudyRow, items?: ItemIndex): RubricReviewerCodes {
  const D = rubricDimensions(study).length;
  const { placement: _placement, ...read } = readReviewerPacks(
    db,
    study,
    rubricLabels,
    D,
    () => ({ unitIndex: (d: number) => (d < D ? d : -1) }),
    items,
  );
  return { ...read, D };
}

/**
 * The ground truth of every item and dimension under the study's rule: the reviewers' labels (`read`, or read
 * now) and the newest ruling, decided by `decide(…, labelCount)` of the dimension (`decideGold`). An item with a
 * pending review, no labels or an open dimension is left out entirely and counted in `incompleteItems`, as for
 * pairwise studies.
 */
export function rubricGroundTruthCodes(db: Db, study: StudyRow, read?: RubricReviewerCodes): RubricGroundTruthCodes {
  const r = read ?? rubricReviewerCodes(db, study);
  const { D, items } = r;
  const dims = rubricDimensions(study);
  const ruled = readRulings(db, study, rubricRulings, rubricLabels, items, D, (d) => (d < D ? d : -1));
  return decideGold(r, D, ruled, study.groundTruthRule, (d) => dims[d].labels.length);
}
