import * as goldQ from '@/db/queries/gold';
import type { Criterion } from '@/lib/validation/pairwise';
import type { GoldFacet } from '../facets/gold';
import { PAIRWISE_LABELS } from './labels';

/** A pairwise gold label is a criterion's (or `overall`'s) label from reply a's side: lose, tie or win. */
export const pairwiseGold: GoldFacet = {
  units: (study) =>
    [...((study.criteria ?? []) as Criterion[]).map((c) => c.id), 'overall'].map((id) => ({ id, labels: PAIRWISE_LABELS })),
  answers: (db, study) =>
    goldQ.pairwiseGoldAnswers(db, study.id).map((r) => ({ itemId: r.itemId, userId: r.userId, unit: String(r.unit), label: String(r.label) })),
};
