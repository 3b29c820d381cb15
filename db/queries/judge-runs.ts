import { type Db, inTransaction, stmt } from '../client';

/** Rows deleted per transaction when a staging run is undone: each batch holds the write lock for milliseconds. */
const DELETE_BATCH = 2_000;

/**
 * Deletes the judge run a staging import was writing, verdicts and packs first in short batches (a run of a
 * million verdicts deleted in one statement would hold the write lock for seconds), then the run. Only a run that
 * is still 'staging' can be deleted this way (migration 0010).
 */
export function deleteStagingJudgeRuns(db: Db, importId: number) {
  const runs = stmt(db, "SELECT id FROM judge_runs WHERE import_id = ? AND state = 'staging'").pluck().all(importId) as number[];
  for (const runId of runs) {
    const batch = (sql: string, ...args: number[]) => inTransaction(db, () => stmt(db, sql).run(...args)).changes === DELETE_BATCH;
    while (batch('DELETE FROM judge_labels WHERE rowid IN (SELECT rowid FROM judge_labels WHERE run_id = ? LIMIT ?)', runId, DELETE_BATCH));
    while (
      batch(
        'DELETE FROM judge_label_packs WHERE run_id = ? AND item_id IN (SELECT item_id FROM judge_label_packs WHERE run_id = ? LIMIT ?)',
        runId,
        runId,
        DELETE_BATCH,
      )
    );
    inTransaction(db, () => stmt(db, "DELETE FROM judge_runs WHERE id = ? AND state = 'staging'").run(runId));
  }
}

/** Makes a staging run visible; false if it is no longer there (undone by another process). */
export const finishJudgeRun = (db: Db, runId: number) =>
  stmt(db, "UPDATE judge_runs SET state = 'done' WHERE id = ? AND state = 'staging'").run(runId).changes === 1;
