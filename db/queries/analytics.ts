import { stmt, type Db } from '../client';

/*
 * Reads for the analytics use-cases. They return integer codes and indices, never statistics: the maths lives in
 * lib/stats. The items' order and the labels themselves are read elsewhere (lib/server/packs/item-index.ts,
 * db/queries/packs.ts). What every kind reads comes first; then what only a rubric study has (its rulings and a
 * judge run's samples, docs/decisions/0010-rubric-labels.md), each packed into one integer per row or one text per
 * item range so that the driver makes no array per row: a dimension is its index in the study's catalog, a label its
 * index in the dimension's label set.
 */

/**
 * Each reply-a source (model) of the study with its items' ids, comma-separated: `[sourceA, ids]`, one row per
 * source, read from `items_study_source_idx` alone (a row per item would cost more than the read itself).
 */
export const itemsBySource = (db: Db, studyId: number) =>
  db.$client.prepare('SELECT source_a, group_concat(id) FROM items WHERE study_id = ? GROUP BY source_a').raw().all(studyId) as [
    string | null,
    string,
  ][];

/** The judge runs of a study, by name (runs still being imported are not there yet). */
export const judgeRuns = (db: Db, studyId: number) =>
  db.$client.prepare("SELECT id, name FROM judge_runs WHERE study_id = ? AND state = 'done' ORDER BY name").all(studyId) as {
    id: number;
    name: string;
  }[];

/** One judge run by name, with how many of its records had a verdict that could not be read; not one still being imported. */
export const findJudgeRun = (db: Db, studyId: number, name: string) =>
  db.$client
    .prepare("SELECT id, name, json_array_length(unparsed) AS unparsed FROM judge_runs WHERE study_id = ? AND name = ? AND state = 'done'")
    .get(studyId, name) as { id: number; name: string; unparsed: number } | undefined;

/* ----- a rubric study's rulings and judge samples ----- */

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
