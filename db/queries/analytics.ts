import type { Db } from '../client';

/*
 * Reads for the analytics use-cases. They return integer codes and indices, never statistics: the maths lives in
 * lib/stats. The items' order and the labels themselves are read elsewhere (lib/server/packs/item-index.ts,
 * db/queries/packs.ts).
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
