import type { Db } from '@/db/client';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import { NO_RULING, decide, needsAdjudication } from '../ground-truth/rule';
import type { DisputedItem } from './disputes';
import { itemRefOf } from './item-refs';

/**
 * Whether one dimension's label codes need an adjudicator under the study's rule, decided by the one ground-truth
 * rule (`decide`) with the dimension's label-set size.
 */
export function rubricNeedsAdjudication(codes: readonly number[], labelCount: number, rule: StudyRow['groundTruthRule']): boolean {
  return needsAdjudication(decide(codes, 0, codes.length, NO_RULING, rule, labelCount));
}

/** Rubric items whose reviews are all in and that have at least one dimension for the adjudicator, in item order. */
export function rubricDisputedItems(db: Db, study: StudyRow): DisputedItem[] {
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const byItem = new Map<number, DisputedItem>();
  for (const row of rq.rubricSplitDimensions(db, study.id)) {
    const labelCount = catalog[row.dimension]?.labels.length;
    if (!labelCount) continue;
    const codes = row.labels.split(',').map(Number);
    if (!rubricNeedsAdjudication(codes, labelCount, study.groundTruthRule)) continue;
    const item = byItem.get(row.itemId) ?? { itemId: row.itemId, position: row.position, disagreements: 0, resolved: 0 };
    item.disagreements++;
    if (row.adjudicated) item.resolved++;
    byItem.set(row.itemId, item);
  }
  return [...byItem.values()];
}

/**
 * The same items as the adjudicator receives them (docs/decisions/0013): each named by its number (`itemRefOf`),
 * in the order of those numbers, and numbered 1, 2, … in that order; nothing follows the file's order.
 */
export function rubricAdjudicatorQueue(db: Db, study: StudyRow): DisputedItem[] {
  return rubricDisputedItems(db, study)
    .map((i) => ({ ...i, itemId: itemRefOf(study, i.itemId) }))
    .sort((a, b) => a.itemId - b.itemId)
    .map((i, k) => ({ ...i, position: k + 1 }));
}
