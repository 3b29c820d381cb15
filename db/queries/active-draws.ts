import type { Db } from '../client';
import type { UNCERTAINTY_SOURCES } from '../schema/active';

/*
 * The stored draws of active labelling (db/schema/active.ts): written once when a queue is opened, read by the
 * corrected leaderboard and the certification, which need π for every item of the pool.
 */

export type ActiveDrawRow = {
  id: number;
  runId: number;
  criterion: string;
  source: (typeof UNCERTAINTY_SOURCES)[number];
  secondRunId: number | null;
  budget: number;
  tau: number;
  seed: number;
};

export function insertDraw(
  db: Db,
  d: Omit<ActiveDrawRow, 'id'> & { studyId: number; createdBy: number },
  pool: readonly { itemId: number; pi: number; drawn: boolean }[],
): number {
  const id = Number(
    db.$client
      .prepare(
        `INSERT INTO active_draws (study_id, run_id, criterion, source, second_run_id, budget, tau, seed, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(d.studyId, d.runId, d.criterion, d.source, d.secondRunId, d.budget, d.tau, d.seed, d.createdBy).lastInsertRowid,
  );
  const put = db.$client.prepare('INSERT INTO active_draw_items (draw_id, item_id, pi, drawn) VALUES (?, ?, ?, ?)');
  for (const p of pool) put.run(id, p.itemId, p.pi, p.drawn ? 1 : 0);
  return id;
}

/** The draws of one judge run on one criterion, oldest first. */
export const drawsOf = (db: Db, studyId: number, runId: number, criterion: string) =>
  (
    db.$client
      .prepare(
        `SELECT id, run_id, criterion, source, second_run_id, budget, tau, seed
           FROM active_draws WHERE study_id = ? AND run_id = ? AND criterion = ? ORDER BY id`,
      )
      .raw()
      .all(studyId, runId, criterion) as [number, number, string, ActiveDrawRow['source'], number | null, number, number, number][]
  ).map(([id, runId2, crit, source, secondRunId, budget, tau, seed]) => ({
    id,
    runId: runId2,
    criterion: crit,
    source,
    secondRunId,
    budget,
    tau,
    seed,
  }));

/** A draw's pool: `[itemId, π, drawn (0/1)]`. */
export const drawItems = (db: Db, drawId: number) =>
  db.$client.prepare('SELECT item_id, pi, drawn FROM active_draw_items WHERE draw_id = ? ORDER BY item_id').raw().all(drawId) as [
    number,
    number,
    0 | 1,
  ][];

/**
 * Every stored answer of a run launched from Concord (all samples, both orders): `[itemId, verdicts JSON]`, the JSON
 * an object from criterion to the canonical label. The spread of the samples is one source of a judge's uncertainty.
 */
export const answerVerdicts = (db: Db, runId: number) =>
  db.$client.prepare('SELECT item_id, verdicts FROM judge_answers WHERE run_id = ?').raw().all(runId) as [number, string][];
