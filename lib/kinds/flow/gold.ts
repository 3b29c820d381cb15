import * as goldQ from '@/db/queries/gold';
import { FLOW_DECISIONS } from '@/lib/validation/labels';
import type { GoldFacet } from '../facets/gold';

/** A flow review's gold label is its decision (verify, truncate or discard); the step of a truncation is not scored. */
export const flowGold: GoldFacet = {
  units: () => [{ id: 'decision', labels: FLOW_DECISIONS }],
  answers: (db, study) =>
    goldQ.flowGoldAnswers(db, study.id).map((r) => ({ itemId: r.itemId, userId: r.userId, unit: String(r.unit), label: String(r.label) })),
};
