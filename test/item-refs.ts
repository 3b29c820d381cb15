import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { itemIdOfRef, itemRefOf } from '@/lib/kinds/rubric/item-refs';

/*
 * A rubric study's reviewers and adjudicator name an item by its number, not its row id (docs/decisions/0013);
 * leads use row ids. Tests that cross between the two convert here.
 */

/** The row id behind the number a reviewer or adjudicator of the study received. */
export const rowIdOf = (studyId: number, ref: number) => itemIdOfRef(findStudy(getDb(), studyId)!, ref);

/** The number a reviewer or adjudicator of the study receives for an item's row id. */
export const refOf = (studyId: number, itemId: number) => itemRefOf(findStudy(getDb(), studyId)!, itemId);
