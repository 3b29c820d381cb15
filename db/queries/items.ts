import type { Db } from '../client';

/*
 * Reads for the lead's list of a pairwise study's items. The states come from the packed labels (see
 * lib/server/studies/pairwise-items.ts); these only fetch what one page shows, by item id, so a page of a study of
 * 150,000 items reads 50 rows, never the payloads of the others.
 */

/** Ids of the study's items whose external id contains `search` (literally: `%`, `_` and `\` match themselves). */
export const itemIdsMatching = (db: Db, studyId: number, search: string) =>
  db.$client
    .prepare(`SELECT id FROM items WHERE study_id = ? AND external_id LIKE ? ESCAPE '\\'`)
    .pluck()
    .all(studyId, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as number[];

export type ItemListRow = { id: number; externalId: string; principles: string | null; sourceA: string | null; sourceB: string | null };

/** The shown fields of the given items (any order). */
export const itemRows = (db: Db, ids: readonly number[]) =>
  db.$client
    .prepare(
      `SELECT id, external_id AS externalId, json_extract(payload, '$.principles') AS principles,
              source_a AS sourceA, source_b AS sourceB
         FROM items WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as ItemListRow[];

/** Per item: assignments made (planned reviews) and submitted ones (judgments in). */
export const judgmentCounts = (db: Db, ids: readonly number[]) =>
  db.$client
    .prepare(
      `SELECT item_id AS itemId, count(*) AS planned, coalesce(sum(state = 'submitted'), 0) AS done
         FROM assignments WHERE item_id IN (SELECT value FROM json_each(?)) GROUP BY item_id`,
    )
    .all(JSON.stringify(ids)) as { itemId: number; planned: number; done: number }[];
