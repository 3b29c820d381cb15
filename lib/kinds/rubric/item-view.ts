import type { Db } from '@/db/client';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import type { BlindRubricItemDto } from '@/lib/server/review/dto';
import type { RubricItem } from '@/lib/validation/rubric';
import { dimensionDto, rubricCatalog } from './catalog';
import { itemRefOf } from './item-refs';

/**
 * The item as a reviewer or adjudicator may see it, field by field: no source, no external id, no group key, and
 * nothing numbered in file order (docs/decisions/0013): the item goes by its adjudicator's number (`itemRefOf`),
 * and `shownAs` is the number the screen shows, the person's own place for it.
 */
export function blindRubricItem(db: Db, study: StudyRow, itemId: number, shownAs: number): BlindRubricItemDto {
  const row = rq.rubricItemRow(db, itemId)!;
  const item = JSON.parse(row.payload) as RubricItem;
  return {
    itemId: itemRefOf(study, itemId),
    position: shownAs,
    problem: item.problem ?? null,
    history: (item.history ?? []).map((t) => ({ role: t.role, text: t.text })),
    reply: item.reply ? item.reply.text : null,
    dimensions: rubricCatalog(study).map(dimensionDto),
  };
}
