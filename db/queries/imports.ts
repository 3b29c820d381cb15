import { stmt, type Db } from '../client';

/*
 * What imports write and read: the `imports` rows (one per import, 'staging' while a large import writes its batches
 * and 'done' once its last transaction has run; lib/server/imports/import-staging.ts says when each of these is
 * called), then what a kind's imports facet stores in tables of its own (rubric items, labels and verdicts as codes).
 * Items, annotations and verdicts that every kind stores alike are in items.ts, assignments.ts and judge-runs.ts.
 */

export type StagingImportRow = {
  id: number;
  studyId: number;
  ownerPid: number | null;
  ownerHost: string | null;
  heartbeatAt: number | null;
};

/** The staging imports of every study (`studyId` undefined) or of one. */
export const stagingImports = (db: Db, studyId?: number) =>
  stmt(
    db,
    `SELECT id, study_id AS studyId, owner_pid AS ownerPid, owner_host AS ownerHost, heartbeat_at AS heartbeatAt
       FROM imports WHERE state = 'staging' AND (? IS NULL OR study_id = ?)`,
  ).all(studyId ?? null, studyId ?? null) as StagingImportRow[];

/** Records a staging import owned by the process `ownerPid` on `ownerHost`; returns its id. */
export const insertStagingImport = (
  db: Db,
  row: {
    studyId: number;
    kind: string;
    format: string;
    filename: string;
    ownerPid: number;
    ownerHost: string;
    now: number;
    createdBy: number;
  },
) =>
  Number(
    stmt(
      db,
      `INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, state, owner_pid, owner_host, heartbeat_at, created_by)
       VALUES (?, ?, ?, ?, 0, 0, 0, 'staging', ?, ?, ?, ?)`,
    ).run(row.studyId, row.kind, row.format, row.filename, row.ownerPid, row.ownerHost, row.now, row.createdBy).lastInsertRowid,
  );

/** Records an import written in one transaction (it is 'done' at once). */
export const insertDoneImport = (
  db: Db,
  row: {
    studyId: number;
    kind: string;
    format: string;
    filename: string;
    records: number;
    inserted: number;
    unchanged: number;
    createdBy: number;
  },
) =>
  stmt(
    db,
    'INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(row.studyId, row.kind, row.format, row.filename, row.records, row.inserted, row.unchanged, row.createdBy);

/** The staging import's sign of life. */
export const touchStagingImport = (db: Db, importId: number, now: number) =>
  stmt(db, "UPDATE imports SET heartbeat_at = ? WHERE id = ? AND state = 'staging'").run(now, importId);

/** Makes a staging import 'done' with its counts; false if it is no longer staging (undone by another process). */
export const finishStagingImport = (db: Db, importId: number, counts: { records: number; inserted: number; unchanged: number }) =>
  stmt(
    db,
    `UPDATE imports SET state = 'done', records = ?, inserted = ?, unchanged = ?, owner_pid = NULL, owner_host = NULL, heartbeat_at = NULL
      WHERE id = ? AND state = 'staging'`,
  ).run(counts.records, counts.inserted, counts.unchanged, importId).changes === 1;

/** Deletes an import's row if it is still staging. */
export const deleteStagingImport = (db: Db, importId: number) =>
  stmt(db, "DELETE FROM imports WHERE id = ? AND state = 'staging'").run(importId);

/**
 * Takes over a staging import whose owner is gone, to undo it: true if the row still had the owner and heartbeat
 * read in `row` (so two processes that both found it abandoned cannot both take it).
 */
export const claimStagingImport = (db: Db, row: StagingImportRow, owner: { pid: number; host: string; now: number }) =>
  stmt(
    db,
    `UPDATE imports SET owner_pid = ?, owner_host = ?, heartbeat_at = ?
      WHERE id = ? AND state = 'staging' AND owner_pid IS ? AND owner_host IS ? AND heartbeat_at IS ?`,
  ).run(owner.pid, owner.host, owner.now, row.id, row.ownerPid, row.ownerHost, row.heartbeatAt).changes === 1;

/*
 * A rubric study's imports and its opening (lib/kinds/rubric/imports.ts, the study's planning): items with their
 * group, prior labels and judge verdicts as dimension/label codes (docs/decisions/0010-rubric-labels.md).
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
