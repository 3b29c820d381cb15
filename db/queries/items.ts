import { stmt, type Db } from '../client';

/*
 * Reads for the lead's list of a pairwise study's items. The states come from the packed labels (see
 * lib/server/studies/items-by-kind.ts); these only fetch what one page shows, by item id, so a page of a study of
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

/** The study's item ids in position order (read from the (study, position) index alone). */
export const itemIdsInOrder = (db: Db, studyId: number) =>
  stmt(db, 'SELECT id FROM items WHERE study_id = ? ORDER BY position').pluck().all(studyId) as number[];

/** The id of the study's item with this external id, if there is one. */
export const itemIdByExternalId = (db: Db, studyId: number, externalId: string) =>
  stmt(db, 'SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, externalId) as number | undefined;

/** The study's item with this external id, with its payload (JSON text), if there is one. */
export const itemByExternalId = (db: Db, studyId: number, externalId: string) =>
  stmt(db, 'SELECT id, payload FROM items WHERE study_id = ? AND external_id = ?').get(studyId, externalId) as
    { id: number; payload: string } | undefined;

/** The content hash of the study's item with this external id, if there is one (items are immutable). */
export const itemContentHash = (db: Db, studyId: number, externalId: string) =>
  stmt(db, 'SELECT content_hash FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, externalId) as string | undefined;

/** The highest position of the study's items, 0 when it has none. */
export const lastItemPosition = (db: Db, studyId: number) =>
  stmt(db, 'SELECT coalesce(max(position), 0) FROM items WHERE study_id = ?').pluck().get(studyId) as number;

export type NewItem = {
  studyId: number;
  externalId: string;
  position: number;
  payload: string;
  contentHash: string;
  stepCount: number | null;
  sourceA: string | null;
  sourceB: string | null;
  importId: number;
};

/** Inserts one imported item (run once per record of an import, so a prepared statement rather than the builder). */
export const insertItem = (db: Db, v: NewItem) =>
  stmt(
    db,
    'INSERT INTO items (study_id, external_id, position, payload, content_hash, step_count, source_a, source_b, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(v.studyId, v.externalId, v.position, v.payload, v.contentHash, v.stepCount, v.sourceA, v.sourceB, v.importId);

/** Deletes up to `limit` items written by an import; returns how many went. */
export const deleteImportItemsBatch = (db: Db, importId: number, limit: number) =>
  stmt(db, 'DELETE FROM items WHERE id IN (SELECT id FROM items WHERE import_id = ? LIMIT ?)').run(importId, limit).changes;

/** Deletes every item an import wrote. */
export const deleteImportItems = (db: Db, importId: number) => stmt(db, 'DELETE FROM items WHERE import_id = ?').run(importId);
