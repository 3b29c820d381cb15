import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import { inTransaction, type Db } from '@/db/client';
import * as importsQ from '@/db/queries/imports';
import { deleteImportItems, deleteImportItemsBatch } from '@/db/queries/items';
import { deleteStagingJudgeRuns } from '@/db/queries/judge-runs';
import { deleteStagingRubricVerdicts } from '@/db/queries/rubric-imports';

/**
 * Large imports are written in short batches so that nobody else waits long for the database: the import's row is
 * 'staging' while its items go in, and a last short transaction makes it 'done'. If the process dies in between,
 * its items are removed again (`recoverAbandonedImports`), so an import is still all or nothing.
 */

/**
 * Asked before each batch and the final transaction of an import commit; throwing stops the import, and its
 * batches are undone. The server's import process sets it to stop once the server that awaits its answer is gone.
 */
let goOnCheck: () => void = () => {};
export function checkBeforeEachCommit(check: () => void) {
  goOnCheck = check;
}

/** A staging import whose heartbeat is older than this is taken for dead, wherever it ran. */
export const STALE_IMPORT_MS = 60_000;
const DELETE_BATCH = 2_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, but someone else's
  }
  // A killed process stays in the table as a zombie until its parent (or init) reaps it: that is not alive.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

function abandoned(row: importsQ.StagingImportRow, now: number): boolean {
  if (row.heartbeatAt === null || now - row.heartbeatAt > STALE_IMPORT_MS) return true;
  if (row.ownerHost === os.hostname() && row.ownerPid !== null && row.ownerPid !== process.pid) return !processAlive(row.ownerPid);
  return false;
}

/** Deletes what an unfinished import wrote: its judge run or its items in short batches, then its row. */
export function undoImport(db: Db, importId: number) {
  deleteStagingRubricVerdicts(db, importId);
  deleteStagingJudgeRuns(db, importId);
  for (;;) {
    const removed = inTransaction(db, () => deleteImportItemsBatch(db, importId, DELETE_BATCH));
    if (removed < DELETE_BATCH) break;
  }
  inTransaction(db, () => {
    deleteImportItems(db, importId);
    importsQ.deleteStagingImport(db, importId);
  });
}

/** What a second import into a study is told while the first is still being written. */
export const ANOTHER_IMPORT = 'Another import into this study is still running; try again when it has finished.';

/** Undoes a failed import at once; if that fails too, it stays 'staging' and the next start or import undoes it. */
export function undoFailedImport(db: Db, importId: number) {
  try {
    undoImport(db, importId);
  } catch (undoError) {
    console.error(undoError);
  }
}

/** Undoes every staging import whose process is gone (all studies, or one). Returns how many were undone. */
export function recoverAbandonedImports(db: Db, studyId?: number): number {
  const now = Date.now();
  const dead = importsQ.stagingImports(db, studyId).filter((row) => abandoned(row, now));
  for (const row of dead) undoImport(db, row.id);
  return dead.length;
}

/** A staging import of the study that is still running (after undoing abandoned ones), if any. */
export function runningImport(db: Db, studyId: number): { id: number } | undefined {
  recoverAbandonedImports(db, studyId);
  return importsQ.stagingImports(db, studyId)[0];
}

/** Records a new staging import owned by this process. Call inside the transaction that checked nothing else runs. */
export function beginStaging(db: Db, row: { studyId: number; kind: string; format: string; filename: string; createdBy: number }): number {
  goOnCheck();
  return importsQ.insertStagingImport(db, { ...row, ownerPid: process.pid, ownerHost: os.hostname(), now: Date.now() });
}

/** Called inside each batch's transaction, just before it commits. */
export function heartbeat(db: Db, importId: number) {
  goOnCheck();
  importsQ.touchStagingImport(db, importId, Date.now());
}

/** The last step: the import and its items become final. */
export function finishStaging(db: Db, importId: number, counts: { records: number; inserted: number; unchanged: number }) {
  goOnCheck();
  // Fails only if another process took this import for dead (its heartbeat stopped for a minute) and undid it.
  if (!importsQ.finishStagingImport(db, importId, counts))
    throw new Error('This import was stopped for too long and has been undone; please import the file again.');
}
