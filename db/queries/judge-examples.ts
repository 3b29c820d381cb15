import { stmt, type Db } from '../client';

/*
 * Worked examples (lib/server/judges/examples.ts, decision 0033): the items a template's examples name, looked up
 * by id or external id, and a readable answer of a run as a sample of the judge's answer format. Apart from
 * judge-launches.ts, which holds templates, launches, answers and the cache.
 */

/** The items of the study with these ids, with their external ids and payloads, in position order. */
export const itemsWithIds = (db: Db, studyId: number, ids: readonly number[]) =>
  stmt(
    db,
    `SELECT id, external_id AS externalId, payload FROM items
      WHERE study_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY position`,
  ).all(studyId, JSON.stringify(ids)) as { id: number; externalId: string; payload: string }[];

/** The ids of the study's items with these external ids (the ones that exist), by external id. */
export const itemIdsByExternalId = (db: Db, studyId: number, externalIds: readonly string[]) =>
  new Map(
    (
      stmt(
        db,
        'SELECT external_id AS externalId, id FROM items WHERE study_id = ? AND external_id IN (SELECT value FROM json_each(?))',
      ).all(studyId, JSON.stringify(externalIds)) as { externalId: string; id: number }[]
    ).map((r) => [r.externalId, r.id]),
  );

/** The raw text of one answer of the run that had a verdict read from it (a sample of the judge's answer format). */
export const readableAnswerSample = (db: Db, runId: number) =>
  stmt(db, "SELECT raw FROM judge_answers WHERE run_id = ? AND verdicts <> '{}' LIMIT 1").pluck().get(runId) as string | undefined;
