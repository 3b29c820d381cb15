import 'server-only';
import fs from 'node:fs';
import os from 'node:os';
import { inTransaction, type Db } from '@/db/client';
import * as importsQ from '@/db/queries/imports';
import { deleteImportItems, deleteImportItemsBatch } from '@/db/queries/items';
import { deleteJudgeLabelPacksBatch, deleteJudgeLabelsBatch, deleteStagingJudgeRun, stagingRunsOfImport } from '@/db/queries/judge-runs';

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
/**
 * Rows deleted per transaction while an import is undone. With every foreign key indexed (migration 0019) a batch
 * of 500 items holds the write lock for a few tens of milliseconds (BENCHMARKS.md, "Undoing an import").
 */
export const UNDO_BATCH = 500;
/** The least pause between two undo transactions of a background undo (see `undoImportInBackground`). */
const UNDO_PAUSE_MS = 10;

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

/**
 * What undoing an import does, as a sequence of short IMMEDIATE transactions in the order the foreign keys need
 * (verdicts and packs of its judge runs, the runs, its items in batches, its row), yielding after each one: the
 * caller decides whether to go straight on (`undoImport`) or to let other writers in between (`undoImportInBackground`).
 * Each batch also refreshes the import's heartbeat, so a long undo is not taken for dead by another process.
 */
function* undoSteps(db: Db, importId: number): Generator<void, void> {
  function* batches(deleteBatch: () => number) {
    for (;;) {
      const removed = inTransaction(db, () => {
        const n = deleteBatch();
        importsQ.touchStagingImport(db, importId, Date.now());
        return n;
      });
      if (removed < UNDO_BATCH) return;
      yield;
    }
  }
  for (const runId of stagingRunsOfImport(db, importId)) {
    yield* batches(() => importsQ.deleteRubricVerdictsBatch(db, runId, UNDO_BATCH));
    yield* batches(() => deleteJudgeLabelsBatch(db, runId, UNDO_BATCH));
    yield* batches(() => deleteJudgeLabelPacksBatch(db, runId, UNDO_BATCH));
    inTransaction(db, () => deleteStagingJudgeRun(db, runId));
    yield;
  }
  yield* batches(() => deleteImportItemsBatch(db, importId, UNDO_BATCH));
  inTransaction(db, () => {
    deleteImportItems(db, importId);
    importsQ.deleteStagingImport(db, importId);
  });
}

const pauseBuffer = new Int32Array(new SharedArrayBuffer(4));

/**
 * Deletes what an unfinished import wrote, one short transaction after the other, and returns when it is done: for a
 * failed import (in the request or the import process that ran it) and for the command line. Between two
 * transactions the process sleeps as long as the last one held the lock (at least `UNDO_PAUSE_MS`), so that
 * writers of other processes — the server's sign-ins and submissions while an orphaned import process undoes its
 * own work — get the lock instead of timing out behind back-to-back transactions. Imports undone in the server's
 * own request are small (up to `IN_PROCESS_IMPORT_BYTES`): a few batches, a few pauses.
 */
export function undoImport(db: Db, importId: number) {
  const steps = undoSteps(db, importId);
  for (;;) {
    const started = performance.now();
    if (steps.next().done) return;
    Atomics.wait(pauseBuffer, 0, 0, Math.max(UNDO_PAUSE_MS, performance.now() - started));
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The same undo for a process that serves people meanwhile (the server at start-up): after each transaction it
 * pauses at least as long as that transaction held the write lock. Requests of this process run in the pause, and
 * a writer of another process (whose busy handler sleeps and retries) finds the lock free at least half the time,
 * instead of timing out with SQLITE_BUSY behind back-to-back transactions.
 */
export async function undoImportInBackground(db: Db, importId: number) {
  const steps = undoSteps(db, importId);
  for (;;) {
    const started = performance.now();
    if (steps.next().done) return;
    await pause(Math.max(UNDO_PAUSE_MS, performance.now() - started));
  }
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

/**
 * The staging imports (all studies, or one) whose process is gone, each taken over by this process (its pid and a
 * fresh heartbeat on the row) so that no other process undoes it at the same time and nobody imports into its study
 * before the undo has finished.
 */
function claimAbandonedImports(db: Db, studyId?: number): number[] {
  const now = Date.now();
  const owner = { pid: process.pid, host: os.hostname(), now };
  return importsQ
    .stagingImports(db, studyId)
    .filter((row) => abandoned(row, now))
    .filter((row) => inTransaction(db, () => importsQ.claimStagingImport(db, row, owner)))
    .map((row) => row.id);
}

let servesRequests = false;
/**
 * Called by the server's start: from then on an abandoned import found before an import into its study (or its
 * opening) is undone in the background as well, and that request is told another import is still running, rather
 * than being held while the undo runs. `false` goes back to undoing them before going on, as the command line does
 * (a test file that played the server, for the files that run after it in the same process).
 */
export function undoAbandonedImportsInBackground(inBackground = true) {
  servesRequests = inBackground;
}

/**
 * Undoes every staging import whose process is gone (all studies, or one). Returns how many. In the command line
 * (and an import process) the undo is done when this returns; in the server it goes on in the background, and the
 * claimed imports count as running until it is done.
 */
export function recoverAbandonedImports(db: Db, studyId?: number): number {
  const dead = claimAbandonedImports(db, studyId);
  for (const id of dead) {
    if (servesRequests) void undoInBackgroundLogged(db, id);
    else undoImport(db, id);
  }
  return dead.length;
}

async function undoInBackgroundLogged(db: Db, importId: number) {
  try {
    await undoImportInBackground(db, importId);
  } catch (e) {
    console.error(`Concord: undoing the abandoned import ${importId} failed; it will be tried again.`, e);
  }
}

/**
 * The server's start-up recovery: the abandoned imports are claimed at once (so their studies refuse imports as
 * still busy) and undone in the background with `undoImportInBackground`, so the server answers while a large
 * undo goes on. Resolves with how many were undone; a failure is logged, and the import, its heartbeat left to
 * go stale, is undone by the next start or the next import into its study.
 */
export async function recoverAbandonedImportsInBackground(db: Db): Promise<number> {
  const dead = claimAbandonedImports(db);
  for (const id of dead) await undoInBackgroundLogged(db, id);
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
