import { type Db, stmt } from '../client';

/*
 * Writes and reads of a rubric study's imports and of its opening: items with their group, prior labels and judge
 * verdicts as dimension/label codes (docs/decisions/0010-rubric-labels.md).
 */

export type NewRubricItem = {
  studyId: number;
  externalId: string;
  position: number;
  payload: string;
  contentHash: string;
  /** reply.source, hidden from reviewers; null when the item judges a whole dialogue. */
  source: string | null;
  groupKey: string | null;
  importId: number;
};

/** Inserts one imported rubric item (once per record of an import, so a prepared statement). */
export const insertRubricItem = (db: Db, v: NewRubricItem) =>
  stmt(
    db,
    `INSERT INTO items (study_id, external_id, position, payload, content_hash, step_count, source_a, source_b, group_key, import_id)
     VALUES (?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?)`,
  ).run(v.studyId, v.externalId, v.position, v.payload, v.contentHash, v.source, v.groupKey, v.importId);

/** The study's items in position order, with their group (for the assignment plan). */
export const itemGroupsInOrder = (db: Db, studyId: number) =>
  stmt(db, 'SELECT id, group_key AS groupKey FROM items WHERE study_id = ? ORDER BY position').all(studyId) as {
    id: number;
    groupKey: string | null;
  }[];

/** Who already holds each item of the study (imported prior annotations before it opens). */
export const reviewersOfItems = (db: Db, studyId: number) =>
  stmt(db, 'SELECT item_id AS itemId, user_id AS userId FROM assignments WHERE study_id = ?').all(studyId) as {
    itemId: number;
    userId: number;
  }[];

/** One label of an annotation, as codes (the trigger appends it to the annotation's pack). */
export const insertRubricLabel = (db: Db, annotationId: number, dimension: number, label: number) =>
  stmt(db, 'INSERT INTO rubric_labels (annotation_id, dimension, label) VALUES (?, ?, ?)').run(annotationId, dimension, label);

/** The labels of an annotation, as codes. */
export const rubricLabelsOf = (db: Db, annotationId: number) =>
  stmt(db, 'SELECT dimension, label FROM rubric_labels WHERE annotation_id = ? ORDER BY dimension').all(annotationId) as {
    dimension: number;
    label: number;
  }[];

export type RubricVerdict = [
  itemId: number,
  dimension: number,
  sample: number,
  label: number,
  rationale: string | null,
  confidence?: number | null,
];

/** Inserts one verdict of a rubric judge run (up to millions of times per import: a prepared statement and a tuple). */
export const insertRubricJudgeLabel = (db: Db, runId: number, v: RubricVerdict) =>
  stmt(
    db,
    'INSERT INTO rubric_judge_labels (run_id, item_id, dimension, sample, label, rationale, confidence) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(runId, v[0], v[1], v[2], v[3], v[4], v[5] ?? null);

/** The verdicts of one sample of a rubric judge run that carry the judge's confidence. */
export const rubricJudgeConfidences = (db: Db, runId: number, sample: number) =>
  stmt(
    db,
    'SELECT item_id AS itemId, dimension, confidence FROM rubric_judge_labels WHERE run_id = ? AND sample = ? AND confidence IS NOT NULL',
  ).all(runId, sample) as { itemId: number; dimension: number; confidence: number }[];

/** How many verdicts a rubric judge run holds. */
export const rubricJudgeLabelCount = (db: Db, runId: number) =>
  stmt(db, 'SELECT count(*) FROM rubric_judge_labels WHERE run_id = ?').pluck().get(runId) as number;

/**
 * Deletes up to `limit` rubric verdicts of a staging judge run; returns how many. Called once per short transaction
 * while an import is undone (lib/server/imports/import-staging.ts); the run itself goes with `deleteStagingJudgeRun`.
 */
export const deleteRubricVerdictsBatch = (db: Db, runId: number, limit: number) =>
  stmt(
    db,
    `DELETE FROM rubric_judge_labels WHERE (run_id, item_id, dimension, sample) IN
       (SELECT run_id, item_id, dimension, sample FROM rubric_judge_labels WHERE run_id = ? LIMIT ?)`,
  ).run(runId, limit).changes;

/** The assignment of one reviewer on one item, if any. */
export const assignmentIdOf = (db: Db, itemId: number, userId: number) =>
  stmt(db, 'SELECT id FROM assignments WHERE item_id = ? AND user_id = ?').pluck().get(itemId, userId) as number | undefined;
