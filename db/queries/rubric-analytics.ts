import { stmt, type Db } from '../client';

/*
 * Reads for the rubric dashboards (docs/decisions/0010-rubric-labels.md). Like db/queries/analytics.ts they return
 * codes, never statistics: a dimension is its index in the study's catalog, a label its index in the dimension's
 * label set. The reviewers' labels come from the annotation packs (db/queries/packs.ts); the rulings and the judge
 * verdicts are read here, each packed into one integer per row so that the driver makes no array per row.
 */

/**
 * The rulings on the study's items `fromItem..toItem` (ids), as `itemId · 1024 + dimension · 16 + label` (dimension
 * < 64, label < 16), in item, dimension and revision order: for one item and dimension the last value read is the
 * newest ruling. Read by item range on the (item, dimension, revision) index, so items of other studies that fall in
 * the range come too: the caller keeps only its own.
 */
export const rubricRulingCodes = (db: Db, fromItem: number, toItem: number) =>
  stmt(
    db,
    `SELECT item_id * 1024 + dimension * 16 + label FROM rubric_adjudications
      WHERE item_id BETWEEN ? AND ? ORDER BY item_id, dimension, revision`,
  )
    .pluck()
    .all(fromItem, toItem) as number[];

/**
 * One sample of a judge run's verdicts on items `fromItem..toItem`, from the packs (migration 0012): segments
 * `/itemId.` followed by one character per dimension, 48 + 16 · dimension + label, joined by SQLite into one text.
 */
export const rubricJudgePackText = (db: Db, runId: number, sample: number, fromItem: number, toItem: number) =>
  (stmt(
    db,
    `SELECT group_concat(segment, '') FROM rubric_judge_label_packs
      WHERE run_id = ? AND sample = ? AND item_id BETWEEN ? AND ?`,
  )
    .pluck()
    .get(runId, sample, fromItem, toItem) as string | null) ?? '';

/** The samples a judge run holds, ascending (1 for a run sampled once): one index seek per sample. */
export function rubricJudgeSamples(db: Db, runId: number): number[] {
  const next = stmt(db, 'SELECT min(sample) FROM rubric_judge_label_packs WHERE run_id = ? AND sample > ?').pluck();
  const out: number[] = [];
  for (let s = next.get(runId, 0) as number | null; s !== null; s = next.get(runId, s) as number | null) out.push(s);
  return out;
}

/* ----- writes for the test fixture and the benchmark (the rubric importers and the review screen write the same rows) ----- */

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
