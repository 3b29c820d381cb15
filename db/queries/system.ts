import type Database from 'better-sqlite3';
import { stmt, type Db } from '../client';

/** Whether the connection answers a trivial query. */
export const databaseAnswers = (db: Db) => stmt(db, 'SELECT 1').pluck().get() === 1;

/**
 * The tables whose row counts a backup is checked against: the people, the studies and every kind of answer
 * (annotations, drafts, labels, adjudications, judge verdicts) and the audit trail.
 */
export const COUNTED_TABLES = [
  'users',
  'studies',
  'study_members',
  'items',
  'assignments',
  'annotations',
  'drafts',
  'labels',
  'adjudications',
  'judge_runs',
  'judge_labels',
  'audit_log',
] as const;

/** Rows per table of `COUNTED_TABLES`, read on a raw connection (inside its transaction, if one is open). */
export function tableCounts(sqlite: Database.Database): Record<string, number> {
  const out: Record<string, number> = {};
  for (const table of COUNTED_TABLES) out[table] = sqlite.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
  return out;
}

/** `PRAGMA integrity_check`, its lines joined: 'ok' for a sound file. */
export function integrityCheck(sqlite: Database.Database): string {
  return (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
}

/** The names of the ordinary tables a database file holds. */
export function tableNames(sqlite: Database.Database): Set<string> {
  return new Set(sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]);
}

/** The migrations recorded as applied in a database file (drizzle's table): how many, and the newest one's time. */
export function appliedMigrations(sqlite: Database.Database): { count: number; newest: number } {
  const row = sqlite.prepare('SELECT count(*) AS count, max(CAST(created_at AS INTEGER)) AS newest FROM __drizzle_migrations').get() as {
    count: number;
    newest: number | null;
  };
  return { count: row.count, newest: row.newest ?? 0 };
}
