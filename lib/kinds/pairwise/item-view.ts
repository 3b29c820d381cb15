/**
 * A pairwise item as a reviewer or adjudicator sees it: the dialogue, the two replies in the person's display order
 * and the criteria it is judged on. Shared by the reviewer's screen (`lib/server/review/judging.ts`) and the
 * adjudicator's (`./adjudication.ts`).
 */
import { getDb, type Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import type { BlindItemDto, CriterionDto } from '@/lib/server/review/dto';
import { OVERALL } from '@/lib/validation/common';
import { applicableCriteria, type Criterion, type PairwiseItem } from '@/lib/validation/pairwise';

const OVERALL_CRITERION: CriterionDto = {
  id: OVERALL,
  name: 'Overall',
  description: 'All things considered, which response is the better next turn for this student?',
  aspects: [],
  level: 'overall',
};

/** The criteria an item is judged on, in order: its general and principle criteria, then overall. */
export function criteriaForItem(study: Pick<StudyRow, 'criteria'>, item: Pick<PairwiseItem, 'principles'>): CriterionDto[] {
  const catalog = (study.criteria ?? []) as Criterion[];
  const byId = new Map(catalog.map((c) => [c.id, c]));
  return applicableCriteria(catalog, item.principles).map((id) => {
    if (id === OVERALL) return OVERALL_CRITERION;
    const c = byId.get(id)!;
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      aspects: c.aspects,
      level: c.level,
      ...(c.principle ? { principle: c.principle } : {}),
    };
  });
}

export function blindItem(study: StudyRow, itemId: number, swapped: boolean, db: Db = getDb()): BlindItemDto {
  const row = pq.itemRow(db, itemId)!;
  const item = JSON.parse(row.payload) as PairwiseItem;
  return {
    itemId,
    position: row.position,
    problem: item.problem,
    instructions: item.instructions ?? null,
    principles: item.principles ?? [],
    history: item.history ?? [],
    responses: swapped ? [item.b.text, item.a.text] : [item.a.text, item.b.text],
    criteria: criteriaForItem(study, item),
  };
}
