import { stmt, type Db } from '../client';

/*
 * Rows that the rubric study test fixture (test/rubric-fixtures-reports.ts) writes straight, without an import or a
 * review behind them: the rubric importers and the review screen write the same rows through their own paths.
 */

/** A rubric item: its canonical payload, reply source (`source_a`) and group. Returns its id. */
export const insertRubricItemRow = (
  db: Db,
  v: {
    studyId: number;
    externalId: string;
    position: number;
    payload: string;
    contentHash: string;
    source: string | null;
    group: string | null;
  },
) =>
  Number(
    stmt(
      db,
      'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, group_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(v.studyId, v.externalId, v.position, v.payload, v.contentHash, v.source, v.group).lastInsertRowid,
  );

/** One reviewer's label on one dimension of an annotation (the trigger adds it to the annotation's pack). */
export const insertRubricLabelRow = (db: Db, annotationId: number, dimension: number, label: number) =>
  stmt(db, 'INSERT INTO rubric_labels (annotation_id, dimension, label) VALUES (?, ?, ?)').run(annotationId, dimension, label);

/** A ruling on one dimension of an item, as the next revision. */
export function insertRubricRulingRow(
  db: Db,
  v: { itemId: number; dimension: number; label: number; adjudicatorId: number; requestId: string; rationale?: string | null },
) {
  const revision =
    (stmt(db, 'SELECT coalesce(max(revision), 0) FROM rubric_adjudications WHERE item_id = ? AND dimension = ?')
      .pluck()
      .get(v.itemId, v.dimension) as number) + 1;
  stmt(
    db,
    `INSERT INTO rubric_adjudications (item_id, dimension, revision, label, rationale, adjudicator_id, request_id)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(v.itemId, v.dimension, revision, v.label, v.rationale ?? null, v.adjudicatorId, v.requestId);
  return revision;
}

/** A finished judge run (no import behind it). Returns its id. */
export const insertRubricJudgeRunRow = (db: Db, v: { studyId: number; name: string; createdBy: number }) =>
  Number(
    stmt(
      db,
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, state, created_by) VALUES (?, ?, 'concord', 'fixture.jsonl', '[]', 'done', ?)",
    ).run(v.studyId, v.name, v.createdBy).lastInsertRowid,
  );

/** One verdict of a judge run on one dimension of an item. */
export const insertRubricJudgeLabelRow = (db: Db, v: { runId: number; itemId: number; dimension: number; sample: number; label: number }) =>
  stmt(db, 'INSERT INTO rubric_judge_labels (run_id, item_id, dimension, sample, label) VALUES (?, ?, ?, ?, ?)').run(
    v.runId,
    v.itemId,
    v.dimension,
    v.sample,
    v.label,
  );
