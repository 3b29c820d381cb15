/** Gold items: their labels (append-only), a study's gold settings, and reviewers' labels on gold items. */
import { stmt, type Db } from '../client';
import { isNewestAnnotation } from './latest-revision';

export type GoldRow = { itemId: number; unit: string; label: string };

/** SQL: item alias `item` is not a gold item now (for readers that keep gold items out of their data). */
export const isNotGold = (itemId = 'i.id') => `NOT EXISTS (SELECT 1 FROM gold_current WHERE item_id = ${itemId})`;

export const insertGoldLabel = (
  db: Db,
  g: { studyId: number; itemId: number; unit: string; label: string | null; source: 'import' | 'lead'; createdBy: number | null },
) =>
  stmt(db, 'INSERT INTO gold_labels (study_id, item_id, unit, label, source, created_by) VALUES (?, ?, ?, ?, ?, ?)').run(
    g.studyId,
    g.itemId,
    g.unit,
    g.label,
    g.source,
    g.createdBy,
  );

/** The current gold labels of a study, in item order. */
export const currentGold = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT g.item_id AS itemId, g.unit, g.label FROM gold_current g JOIN items i ON i.id = g.item_id
      WHERE g.study_id = ? ORDER BY i.position, g.unit`,
  ).all(studyId) as GoldRow[];

export const goldOfItem = (db: Db, itemId: number) =>
  stmt(db, 'SELECT item_id AS itemId, unit, label FROM gold_current WHERE item_id = ? ORDER BY unit').all(itemId) as GoldRow[];

/** The study's gold items, in item order. */
export const goldItemIds = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT i.id FROM items i WHERE i.study_id = ? AND EXISTS (SELECT 1 FROM gold_current g WHERE g.item_id = i.id)
      ORDER BY i.position`,
  )
    .pluck()
    .all(studyId) as number[];

export type GoldSettingsRow = { ratePct: number; alertBelowPct: number | null };

export const goldSettings = (db: Db, studyId: number): GoldSettingsRow =>
  (stmt(db, 'SELECT rate_pct AS ratePct, alert_below_pct AS alertBelowPct FROM study_gold_settings WHERE study_id = ?').get(
    studyId,
  ) as GoldSettingsRow | undefined) ?? { ratePct: 0, alertBelowPct: null };

export const putGoldSettings = (db: Db, studyId: number, s: GoldSettingsRow, userId: number, now: number) =>
  stmt(
    db,
    `INSERT INTO study_gold_settings (study_id, rate_pct, alert_below_pct, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(study_id) DO UPDATE SET rate_pct = excluded.rate_pct, alert_below_pct = excluded.alert_below_pct,
         updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
  ).run(studyId, s.ratePct, s.alertBelowPct, userId, now);

/** A reviewer's counting label on one unit of a gold item (the newest revision of a submitted assignment). */
export type ReviewerGoldRow = { itemId: number; userId: number; unit: string | number; label: string | number };

const SUBMITTED_ON_GOLD = `FROM assignments a
  JOIN annotations an ON an.assignment_id = a.id AND ${isNewestAnnotation('an', 'a')}
  WHERE a.study_id = ? AND a.state = 'submitted' AND a.item_id IN (SELECT item_id FROM gold_current WHERE study_id = ?)`;

/** Pairwise: criterion and canonical label (from reply a's side). */
export const pairwiseGoldAnswers = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT a.item_id AS itemId, a.user_id AS userId, l.criterion AS unit, l.label
       FROM labels l JOIN (SELECT an.id, a.item_id, a.user_id ${SUBMITTED_ON_GOLD}) a ON a.id = l.annotation_id`,
  ).all(studyId, studyId) as ReviewerGoldRow[];

/** Rubric: the dimension's index in the catalog and the label's in its set. */
export const rubricGoldAnswers = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT a.item_id AS itemId, a.user_id AS userId, l.dimension AS unit, l.label
       FROM rubric_labels l JOIN (SELECT an.id, a.item_id, a.user_id ${SUBMITTED_ON_GOLD}) a ON a.id = l.annotation_id`,
  ).all(studyId, studyId) as ReviewerGoldRow[];

/** Flow review: the decision. */
export const flowGoldAnswers = (db: Db, studyId: number) =>
  stmt(db, `SELECT a.item_id AS itemId, a.user_id AS userId, 'decision' AS unit, an.decision AS label ${SUBMITTED_ON_GOLD} AND an.decision IS NOT NULL`).all(
    studyId,
    studyId,
  ) as ReviewerGoldRow[];

/** The study an item belongs to, if the item exists. */
export const studyOfItem = (db: Db, itemId: number) =>
  stmt(db, 'SELECT study_id FROM items WHERE id = ?').pluck().get(itemId) as number | undefined;

/** Who already holds each gold item of a study (imported prior annotations), for mixing gold into queues. */
export const holdersOfGold = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT a.item_id AS itemId, a.user_id AS userId, a.slot FROM assignments a
      WHERE a.study_id = ? AND a.item_id IN (SELECT item_id FROM gold_current WHERE study_id = ?)`,
  ).all(studyId, studyId) as { itemId: number; userId: number; slot: number }[];

/** The names of people by id, for the lead's tables. */
export const namesOf = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT u.id, u.username, u.display_name AS displayName FROM users u
      WHERE u.id IN (SELECT user_id FROM assignments WHERE study_id = ?)`,
  ).all(studyId) as { id: number; username: string; displayName: string | null }[];

/** The current gold labels of a study with each item's external id, in item order (the lead's items page). */
export const currentGoldWithIds = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT g.item_id AS itemId, i.external_id AS externalId, g.unit, g.label FROM gold_current g JOIN items i ON i.id = g.item_id
      WHERE g.study_id = ? ORDER BY i.position, g.unit`,
  ).all(studyId) as (GoldRow & { externalId: string })[];

/**
 * The study's items in position order, gold items left out: the items whose labels are data (ground truth,
 * agreement). Gold items are checks, decision 0030.
 */
export const dataItemIdsInOrder = (db: Db, studyId: number) =>
  stmt(db, `SELECT i.id FROM items i WHERE i.study_id = ? AND ${isNotGold('i.id')} ORDER BY i.position`)
    .pluck()
    .all(studyId) as number[];
