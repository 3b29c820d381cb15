import type { Db } from '../client';
import { isNewestAnnotation, isNewestRuling } from './latest-revision';
import { NOT_EXCLUDED } from './packs-exclusions';

/*
 * Rubric labels, rulings and items as the review screens, the adjudication and the ground truth read them. Labels
 * are codes (dimension index, label index: docs/decisions/0010-rubric-labels.md); names live in lib/server.
 */

export type RubricCode = { dimension: number; label: number };

export type RubricItemRow = {
  id: number;
  studyId: number;
  externalId: string;
  position: number;
  payload: string;
  source: string | null;
  groupKey: string | null;
};

export const rubricItemRow = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT id, study_id AS studyId, external_id AS externalId, position, payload, source_a AS source, group_key AS groupKey
         FROM items WHERE id = ?`,
    )
    .get(itemId) as RubricItemRow | undefined;

/** The reviewer's assignments of one group (a dialogue's replies) in their queue order: ids only. */
export const groupAssignmentIds = (db: Db, studyId: number, userId: number, groupKey: string) =>
  db.$client
    .prepare(
      `SELECT a.id FROM assignments a JOIN items i ON i.id = a.item_id
        WHERE a.study_id = ? AND a.user_id = ? AND i.study_id = a.study_id AND i.group_key = ?
        ORDER BY a.queue_position`,
    )
    .pluck()
    .all(studyId, userId, groupKey) as number[];

export const insertRubricLabels = (db: Db, annotationId: number, rows: readonly RubricCode[]) => {
  const stmt = db.$client.prepare('INSERT INTO rubric_labels (annotation_id, dimension, label) VALUES (?, ?, ?)');
  for (const r of rows) stmt.run(annotationId, r.dimension, r.label);
};

export const rubricLabelsOf = (db: Db, annotationId: number) =>
  db.$client
    .prepare('SELECT dimension, label FROM rubric_labels WHERE annotation_id = ? ORDER BY dimension')
    .all(annotationId) as RubricCode[];

/**
 * The counting labels of every reviewer of one item: newest revision of each submitted assignment, by slot; an
 * excluded annotator's are left out (decision 0029), as the adjudicator's queue leaves them out.
 */
export const rubricReviewerLabels = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT a.slot, a.user_id AS userId, l.dimension, l.label
         FROM assignments a
         JOIN annotations an ON an.assignment_id = a.id
          AND ${isNewestAnnotation()}
         JOIN rubric_labels l ON l.annotation_id = an.id
        WHERE a.item_id = ? AND a.state = 'submitted' AND ${NOT_EXCLUDED('a.user_id', 'a.study_id')}
        ORDER BY a.slot, l.dimension`,
    )
    .all(itemId) as (RubricCode & { slot: number; userId: number })[];

/** Each reviewer slot of an item with its state, reviewer's username and newest note. */
export const rubricReviewers = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT a.slot, a.state, u.username,
              (SELECT note FROM annotations WHERE assignment_id = a.id ORDER BY revision DESC LIMIT 1) AS note
         FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.item_id = ? ORDER BY a.slot`,
    )
    .all(itemId) as { slot: number; state: 'pending' | 'submitted'; username: string; note: string | null }[];

export type RubricRulingRow = RubricCode & { rationale: string | null; adjudicatorId: number; adjudicator: string; revision: number };

/** The newest ruling on each dimension of one item. */
export const latestRubricRulings = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT j.dimension, j.label, j.rationale, j.adjudicator_id AS adjudicatorId, u.username AS adjudicator, j.revision
         FROM rubric_adjudications j JOIN users u ON u.id = j.adjudicator_id
        WHERE j.item_id = ?
          AND ${isNewestRuling('rubric_adjudications')}
        ORDER BY j.dimension`,
    )
    .all(itemId) as RubricRulingRow[];

export const hasRubricAdjudication = (db: Db, itemId: number) =>
  db.$client.prepare('SELECT 1 FROM rubric_adjudications WHERE item_id = ? LIMIT 1').pluck().get(itemId) === 1;

/** The ruling an adjudicator's request id wrote, if any (request ids are per person). */
export const rubricAdjudicationByRequest = (db: Db, adjudicatorId: number, requestId: string) =>
  db.$client
    .prepare(
      'SELECT item_id AS itemId, request_hash AS requestHash FROM rubric_adjudications WHERE adjudicator_id = ? AND request_id = ? LIMIT 1',
    )
    .get(adjudicatorId, requestId) as { itemId: number; requestHash: string | null } | undefined;

export function insertRubricAdjudication(
  db: Db,
  a: RubricCode & { itemId: number; rationale: string | null; adjudicatorId: number; requestId: string; requestHash: string },
) {
  const revision =
    (db.$client
      .prepare('SELECT coalesce(max(revision), 0) FROM rubric_adjudications WHERE item_id = ? AND dimension = ?')
      .pluck()
      .get(a.itemId, a.dimension) as number) + 1;
  db.$client
    .prepare(
      `INSERT INTO rubric_adjudications (item_id, dimension, revision, label, rationale, adjudicator_id, request_id, request_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(a.itemId, a.dimension, revision, a.label, a.rationale, a.adjudicatorId, a.requestId, a.requestHash);
}

/**
 * Every (item, dimension) of a study whose reviews are all in and whose reviewers did not all give the same label:
 * the label codes given (comma-separated) and whether a ruling exists. In item order. Excluded annotators' labels
 * (and their pending slots) are left out: an item split only by them is not disputed.
 */
export const rubricSplitDimensions = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `WITH latest AS (
         SELECT a.item_id, l.dimension, l.label
           FROM assignments a
           JOIN annotations an ON an.assignment_id = a.id
            AND ${isNewestAnnotation()}
           JOIN rubric_labels l ON l.annotation_id = an.id
          WHERE a.study_id = @studyId AND a.state = 'submitted' AND ${NOT_EXCLUDED('a.user_id', '@studyId')}),
       complete AS (
         SELECT item_id FROM assignments WHERE study_id = @studyId AND ${NOT_EXCLUDED('user_id', '@studyId')}
          GROUP BY item_id HAVING sum(state = 'pending') = 0)
       SELECT s.item_id AS itemId, i.position, s.dimension, s.labels,
              EXISTS (SELECT 1 FROM rubric_adjudications j WHERE j.item_id = s.item_id AND j.dimension = s.dimension) AS adjudicated
         FROM (SELECT item_id, dimension, group_concat(label) AS labels FROM latest
                WHERE item_id IN (SELECT item_id FROM complete)
                GROUP BY item_id, dimension HAVING count(DISTINCT label) > 1) s
         JOIN items i ON i.id = s.item_id
        ORDER BY i.position, s.dimension`,
    )
    .all({ studyId }) as { itemId: number; position: number; dimension: number; labels: string; adjudicated: 0 | 1 }[];

/** The newest ruling on every item and dimension of a study, with the adjudicator's username. */
export const studyRubricRulings = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT j.item_id AS itemId, j.dimension, j.label, j.rationale, u.username AS adjudicator
         FROM rubric_adjudications j JOIN items i ON i.id = j.item_id JOIN users u ON u.id = j.adjudicator_id
        WHERE i.study_id = ?
          AND ${isNewestRuling('rubric_adjudications')}`,
    )
    .all(studyId) as (RubricCode & { itemId: number; rationale: string | null; adjudicator: string })[];

export type RubricLabelStreamRow = {
  itemId: number;
  externalId: string;
  groupKey: string | null;
  source: string | null;
  /** Reviewer slots of the item still pending. */
  pending: number;
  slot: number | null;
  dimension: number | null;
  label: number | null;
};

/**
 * Every item of a study in position order with the counting labels of its submitted reviewers (newest revision),
 * by slot and dimension: one row per label, one row with null label fields for an item without any. Iterated, so
 * a large study is never held in memory.
 */
export const iterateRubricLabels = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT i.id AS itemId, i.external_id AS externalId, i.group_key AS groupKey, i.source_a AS source,
              (SELECT count(*) FROM assignments p WHERE p.item_id = i.id AND p.state = 'pending'
                  AND ${NOT_EXCLUDED('p.user_id')}) AS pending,
              a.slot, l.dimension, l.label
         FROM items i
         LEFT JOIN assignments a ON a.item_id = i.id AND a.state = 'submitted' AND ${NOT_EXCLUDED('a.user_id')}
         LEFT JOIN annotations an ON an.assignment_id = a.id
               AND ${isNewestAnnotation()}
         LEFT JOIN rubric_labels l ON l.annotation_id = an.id
        WHERE i.study_id = ?
        ORDER BY i.position, a.slot, l.dimension`,
    )
    .iterate(studyId, studyId, studyId) as IterableIterator<RubricLabelStreamRow>;

/** A judge run's verdicts on one item (finished runs only), with the run's name. */
export const rubricJudgeVerdicts = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT r.name AS run, j.dimension, j.sample, j.label, j.rationale
         FROM rubric_judge_labels j JOIN judge_runs r ON r.id = j.run_id
        WHERE j.item_id = ? AND r.state = 'done'
        ORDER BY r.name, j.sample, j.dimension`,
    )
    .all(itemId) as (RubricCode & { run: string; sample: number; rationale: string | null })[];

/** Each reviewer's counting labels on one item, with the reviewer's username (for the study's leads). */
export const rubricLabelsWithReviewers = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT a.slot, u.username, l.dimension, l.label
         FROM assignments a JOIN users u ON u.id = a.user_id
         JOIN annotations an ON an.assignment_id = a.id
          AND ${isNewestAnnotation()}
         JOIN rubric_labels l ON l.annotation_id = an.id
        WHERE a.item_id = ? AND a.state = 'submitted'
        ORDER BY a.slot, l.dimension`,
    )
    .all(itemId) as (RubricCode & { slot: number; username: string })[];

/** Item ids of a study whose external id, group or source contains `text` (case-insensitive for ASCII). */
export const rubricItemIdsMatching = (db: Db, studyId: number, text: string) =>
  db.$client
    .prepare(
      `SELECT id FROM items WHERE study_id = ?
          AND (instr(lower(external_id), lower(?)) > 0 OR instr(lower(coalesce(group_key, '')), lower(?)) > 0
               OR instr(lower(coalesce(source_a, '')), lower(?)) > 0)`,
    )
    .pluck()
    .all(studyId, text, text, text) as number[];

/** Reviews planned per item of a study (assignments made). */
export const plannedByItem = (db: Db, studyId: number) =>
  db.$client.prepare('SELECT item_id AS itemId, count(*) AS n FROM assignments WHERE study_id = ? GROUP BY item_id').all(studyId) as {
    itemId: number;
    n: number;
  }[];

/** The labels of every revision of an item's rubric annotations (undone ones too), by annotation. */
export const rubricRevisionLabels = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT l.annotation_id AS annotationId, l.dimension, l.label
         FROM rubric_labels l JOIN annotations n ON n.id = l.annotation_id JOIN assignments a ON a.id = n.assignment_id
        WHERE a.item_id = ?`,
    )
    .all(itemId) as { annotationId: number; dimension: number; label: number }[];
