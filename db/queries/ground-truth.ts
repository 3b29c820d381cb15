import { isNotGold } from './gold';
import type { Db } from '../client';
import type { LabelRow } from './pairwise';
import { isNewestRuling } from './latest-revision';

export type RulingRow = { itemId: number; criterion: string; label: LabelRow['label']; rationale: string | null; adjudicator: string };

/** The newest ruling on every item and criterion of a study, with the adjudicator's username. */
export const latestRulings = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT j.item_id AS itemId, j.criterion, j.label, j.rationale, u.username AS adjudicator
         FROM adjudications j JOIN items i ON i.id = j.item_id JOIN users u ON u.id = j.adjudicator_id
        WHERE i.study_id = ? AND ${isNewestRuling('adjudications')}`,
    )
    .all(studyId) as RulingRow[];

/**
 * The study's items in position order as `[id, external id]` pairs (arrays, not objects: a study may have 100,000);
 * gold items, which are checks and not data, are left out (decision 0030).
 */
export const itemIdsInOrder = (db: Db, studyId: number) =>
  db.$client
    .prepare(`SELECT i.id, i.external_id FROM items i WHERE i.study_id = ? AND ${isNotGold('i.id')} ORDER BY i.position`)
    .raw()
    .all(studyId) as [number, string][];
