import { stmt, type Db } from '../client';

/*
 * The `imports` rows: one per import, 'staging' while a large import writes its batches and 'done' once its last
 * transaction has run (lib/server/imports/import-staging.ts says when each of these is called).
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
