import type { Db } from '@/db/client';
import { goldItemIds } from '@/db/queries/gold';
import type { StudyRow } from '@/db/queries/studies';
import type { DisputedItem } from '@/lib/kinds/facets/adjudication';
import { studyKind } from '@/lib/kinds/registry';
import type { Label } from '@/lib/validation/labels';
import { NO_RULING, decide, decideLabels, needsAdjudication as outcomeNeedsAdjudication } from '../ground-truth/rule';

export type { DisputedItem };

/**
 * Whether a criterion's labels need an adjudicator under the study's rule (lib/server/ground-truth/rule.ts): any
 * disagreement under agreed-or-adjudicated; only the lack of a majority under the majority rule.
 */
export function needsAdjudication(labels: readonly Label[], rule: StudyRow['groundTruthRule']): boolean {
  return decideLabels(labels, null, rule).needsAdjudication;
}

/**
 * Items of a study of any kind whose reviews are all in and that have at least one unit (a criterion, a
 * dimension) for the adjudicator under the study's rule, in item order, by item id. The kind says what its split
 * units are and how its labels read as codes; the rule decides.
 */
export function disputedItems(db: Db, study: StudyRow): DisputedItem[] {
  const facet = studyKind(study.kind).adjudication;
  if (!facet) return [];
  const byItem = new Map<number, DisputedItem>();
  // Gold items are checks with a known answer, not data: nothing about them is for an adjudicator (decision 0030).
  const gold = new Set(goldItemIds(db, study.id));
  for (const unit of facet.splitUnits(db, study)) {
    if (gold.has(unit.itemId)) continue;
    const outcome = decide(unit.votes, 0, unit.votes.length, NO_RULING, study.groundTruthRule, unit.labelCount);
    if (!outcomeNeedsAdjudication(outcome)) continue;
    const item = byItem.get(unit.itemId) ?? { itemId: unit.itemId, position: unit.position, disagreements: 0, resolved: 0 };
    item.disagreements++;
    if (unit.adjudicated) item.resolved++;
    byItem.set(unit.itemId, item);
  }
  return [...byItem.values()];
}

/**
 * The same items as the adjudicator receives them: named and ordered as the kind names items to an adjudicator
 * (a rubric study's items by their keyed numbers, docs/decisions/0013).
 */
export function adjudicatorQueue(db: Db, study: StudyRow): DisputedItem[] {
  const facet = studyKind(study.kind).adjudication;
  return facet ? facet.queueOf(study, disputedItems(db, study)) : [];
}
