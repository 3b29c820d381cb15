import type { Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import type { Label } from '@/lib/validation/labels';
import { decideLabels } from '../ground-truth/rule';

/**
 * Whether a criterion's labels need an adjudicator under the study's rule (lib/server/ground-truth/rule.ts): any
 * disagreement under agreed-or-adjudicated; only the lack of a majority under the majority rule.
 */
export function needsAdjudication(labels: readonly Label[], rule: StudyRow['groundTruthRule']): boolean {
  return decideLabels(labels, null, rule).needsAdjudication;
}

export type DisputedItem = { itemId: number; position: number; disagreements: number; resolved: number };

/** Items whose reviews are all in and that have at least one criterion for the adjudicator, in item order. */
export function disputedItems(db: Db, study: StudyRow): DisputedItem[] {
  const byItem = new Map<number, DisputedItem>();
  for (const row of pq.splitCriteria(db, study.id)) {
    if (!needsAdjudication(row.labels.split(',') as Label[], study.groundTruthRule)) continue;
    const item = byItem.get(row.itemId) ?? { itemId: row.itemId, position: row.position, disagreements: 0, resolved: 0 };
    item.disagreements++;
    if (row.adjudicated) item.resolved++;
    byItem.set(row.itemId, item);
  }
  return [...byItem.values()];
}
