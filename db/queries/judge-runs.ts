import { type Db, stmt } from '../client';

/*
 * Undoing a staging judge run (lib/server/imports/import-staging.ts): its verdicts and packs go first, one batch of
 * at most `limit` rows per call, each call meant to be its own short transaction (a run of a million verdicts
 * deleted in one statement would hold the write lock for seconds), then the run. Only a run that is still
 * 'staging' can be deleted this way (migration 0010).
 */

/** The judge runs a staging import was writing. */
export const stagingRunsOfImport = (db: Db, importId: number) =>
  stmt(db, "SELECT id FROM judge_runs WHERE import_id = ? AND state = 'staging'").pluck().all(importId) as number[];

/** Deletes up to `limit` verdicts of a run; returns how many. */
export const deleteJudgeLabelsBatch = (db: Db, runId: number, limit: number) =>
  stmt(db, 'DELETE FROM judge_labels WHERE rowid IN (SELECT rowid FROM judge_labels WHERE run_id = ? LIMIT ?)').run(runId, limit).changes;

/** Deletes up to `limit` packed verdicts of a run; returns how many. */
export const deleteJudgeLabelPacksBatch = (db: Db, runId: number, limit: number) =>
  stmt(
    db,
    'DELETE FROM judge_label_packs WHERE run_id = ? AND item_id IN (SELECT item_id FROM judge_label_packs WHERE run_id = ? LIMIT ?)',
  ).run(runId, runId, limit).changes;

/** Deletes a staging run (its verdicts already gone). */
export const deleteStagingJudgeRun = (db: Db, runId: number) =>
  stmt(db, "DELETE FROM judge_runs WHERE id = ? AND state = 'staging'").run(runId);

/** Makes a staging run visible; false if it is no longer there (undone by another process). */
export const finishJudgeRun = (db: Db, runId: number) =>
  stmt(db, "UPDATE judge_runs SET state = 'done' WHERE id = ? AND state = 'staging'").run(runId).changes === 1;

/** Whether the study already has a judge run of this name (in any state). */
export const judgeRunExists = (db: Db, studyId: number, name: string) =>
  stmt(db, 'SELECT 1 FROM judge_runs WHERE study_id = ? AND name = ?').get(studyId, name) !== undefined;

/** A judge run being written by the staging import `importId`; returns its id. */
export const insertStagingJudgeRun = (
  db: Db,
  run: { studyId: number; name: string; format: string; filename: string; unparsed: string; importId: number; createdBy: number },
) =>
  Number(
    stmt(
      db,
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, import_id, state, created_by) VALUES (?, ?, ?, ?, ?, ?, 'staging', ?)",
    ).run(run.studyId, run.name, run.format, run.filename, run.unparsed, run.importId, run.createdBy).lastInsertRowid,
  );

export type JudgeVerdict = [
  itemId: number,
  criterion: string,
  swapped: number,
  label: string,
  rationale: string | null,
  confidence?: number | null,
];

/** Inserts one verdict of a run (run up to millions of times by an import, so a prepared statement and a tuple). */
export const insertJudgeLabel = (db: Db, runId: number, v: JudgeVerdict) =>
  stmt(db, 'INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label, rationale, confidence) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    runId,
    v[0],
    v[1],
    v[2],
    v[3],
    v[4],
    v[5] ?? null,
  );

/** The finished judge runs of a study by name, each with its number of verdicts (pairwise or rubric) and of records it could not read, and a combined run's recipe (JSON). */
export const judgeRunSummaries = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT r.name, r.format, r.recipe, json_array_length(r.unparsed) AS unparsed, r.created_at AS createdAt,
              (SELECT count(*) FROM judge_labels j WHERE j.run_id = r.id)
                + (SELECT count(*) FROM rubric_judge_labels v WHERE v.run_id = r.id) AS labels
         FROM judge_runs r WHERE r.study_id = ? AND r.state = 'done' ORDER BY r.name`,
  ).all(studyId) as { name: string; format: string; recipe: string | null; unparsed: number; createdAt: number; labels: number }[];

/** A run combined from other runs of the study (format `combined`, no file, its recipe as JSON); returns its id. */
export const insertCombinedJudgeRun = (db: Db, run: { studyId: number; name: string; recipe: string; createdBy: number }) =>
  Number(
    stmt(
      db,
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, recipe, state, created_by) VALUES (?, ?, 'combined', '', '[]', ?, 'done', ?)",
    ).run(run.studyId, run.name, run.recipe, run.createdBy).lastInsertRowid,
  );

/** A rubric judge run's verdicts as codes, every sample (`[itemId, dimension, sample, label]`, in item order). */
export const rubricJudgeVerdicts = (db: Db, runId: number) =>
  stmt(db, 'SELECT item_id, dimension, sample, label FROM rubric_judge_labels WHERE run_id = ?').raw().iterate(runId) as IterableIterator<
    [number, number, number, number]
  >;

/** The verdicts of a run that carry the judge's confidence: item, criterion, order and confidence. */
export const judgeConfidences = (db: Db, runId: number) =>
  stmt(db, 'SELECT item_id AS itemId, criterion, swapped, confidence FROM judge_labels WHERE run_id = ? AND confidence IS NOT NULL').all(
    runId,
  ) as { itemId: number; criterion: string; swapped: number; confidence: number }[];
