/**
 * The soak's checks after the load, on what the server wrote: every acknowledged submission stored exactly once
 * and nothing else, the upload and the judge run complete, the database's integrity; and the newest backup restored
 * with the real CLI into a fresh folder, holding every submission acknowledged before it was taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { cliOn, integrityCheck } from '@/e2e/support/server';
import { acks } from './measures';

export type DatabaseCheck = {
  /** Annotations stored in the annotators' study. */
  stored: number;
  /** Acknowledged but not stored; stored more than once; stored but never acknowledged. */
  lost: number;
  doubled: number;
  unacked: number;
  /** Items of the upload's study and verdicts of the judged study's finished runs. */
  items: number;
  verdicts: number;
  integrity: string;
};

/** Reads the database `db` (the server stopped) against the acknowledged submissions. */
export function checkDatabase(db: string, studies: { flowStudy: number; bigStudy: number; pairStudy: number }): DatabaseCheck {
  const live = new Database(db, { fileMustExist: true });
  const stored = live
    .prepare(
      `SELECT u.username, an.assignment_id AS assignmentId, an.request_id AS requestId FROM annotations an
         JOIN assignments a ON a.id = an.assignment_id JOIN users u ON u.id = an.created_by WHERE a.study_id = ?`,
    )
    .all(studies.flowStudy) as { username: string; assignmentId: number; requestId: string }[];
  const key = (x: { username: string; assignmentId: number; requestId: string }) => `${x.username}/${x.assignmentId}/${x.requestId}`;
  const storedCount = new Map<string, number>();
  for (const s of stored) storedCount.set(key(s), (storedCount.get(key(s)) ?? 0) + 1);
  const ackedKeys = new Set(acks.map(key));
  const lost = acks.filter((a) => !storedCount.has(key(a))).length;
  const doubled = [...storedCount.values()].filter((n) => n > 1).length;
  const unacked = stored.filter((s) => !ackedKeys.has(key(s))).length;
  const items = live.prepare('SELECT count(*) FROM items WHERE study_id = ?').pluck().get(studies.bigStudy) as number;
  const verdicts = live
    .prepare("SELECT count(*) FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id WHERE r.study_id = ? AND r.state = 'done'")
    .pluck()
    .get(studies.pairStudy) as number;
  const integrity = integrityCheck(live);
  live.close();
  return { stored: stored.length, lost, doubled, unacked, items, verdicts, integrity };
}

/**
 * Restores the newest backup of `backupDir` with `concord restore` into a fresh folder under `dir` and counts the
 * submissions acknowledged before it was taken that it lacks (`missing`, -1 when no backup was taken). `newestAt`
 * is the newest backup as the server's health named it, for the report line.
 */
export function checkNewestBackup(db: string, dir: string, backupDir: string, newestAt: string | null): { line: string; missing: number } {
  const backups = fs
    .readdirSync(backupDir)
    .filter((f) => /^concord-.*\.db$/.test(f))
    .sort();
  if (!backups.length) return { line: 'no backup was taken', missing: -1 };
  const newest = backups.at(-1)!;
  const m = /^concord-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.db$/.exec(newest)!;
  const takenAt = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
  const fresh = path.join(fs.mkdtempSync(path.join(dir, 'restored-')), 'concord.db');
  const out = cliOn(db, ['restore', path.join(backupDir, newest), '--to', fresh]).trim();
  const restored = new Database(fresh, { readonly: true });
  const has = restored.prepare(
    `SELECT count(*) FROM annotations an JOIN users u ON u.id = an.created_by WHERE u.username = ? AND an.assignment_id = ? AND an.request_id = ?`,
  );
  const before = acks.filter((a) => a.at < takenAt);
  const missing = before.filter((a) => has.pluck().get(a.username, a.assignmentId, a.requestId) !== 1).length;
  restored.close();
  const line =
    `${backups.length} good backups kept (${backups.join(', ')}); health named the newest ${newestAt}; ` +
    `${out.split('\n')[0]} — ${before.length.toLocaleString('en')} submissions acknowledged before it was taken, ${missing} missing from it`;
  return { line, missing };
}
