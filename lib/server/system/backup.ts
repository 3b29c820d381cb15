import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '@/db/private-files';
import { integrityCheck, tableCounts } from '@/db/queries/system';
import { databasePath } from '@/lib/env';
import type { Actor } from '../actor';
import { forbidden, invalid } from '../errors';
import type { BackupDto, BackupRunDto, GoodBackupDto } from './dto';

/** The name of a scheduled backup: its UTC time, to the millisecond, so names sort by age. */
const SCHEDULED = /^concord-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.db$/;
/** The result of the newest scheduled attempt, good or not, beside the backups. */
export const STATUS_FILE = 'last-backup.json';

export function scheduledName(at: Date): string {
  return `concord-${at.toISOString().replace(/[-:.]/g, '')}.db`;
}

function fsyncFile(file: string) {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename in `dir` durable (on Linux a directory can be fsynced; elsewhere this is skipped). */
export function fsyncDir(dir: string) {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // not supported on this platform
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Removes a database file and the journal files SQLite may have left beside it. */
function removeDatabaseFile(file: string) {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

/**
 * Copies the database at `source` to `target` while people keep working, and checks the copy before it takes
 * its name (`at` in the answer: every transaction committed before that moment is in the copy):
 * - one read transaction on a connection of its own pins a snapshot; the main tables are counted in it and the
 *   backup API copies exactly that snapshot (writers go on committing to the WAL meanwhile);
 * - the copy is written as `target.partial`, switched to a single self-contained file (rollback journal), and
 *   must pass `PRAGMA integrity_check` and hold the same row counts as the snapshot;
 * - only then is it fsynced and renamed to `target`. A failed copy is removed and never carries a backup's name.
 */
export async function copyAndVerify(source: string, target: string): Promise<BackupDto> {
  const partial = `${target}.partial`;
  removeDatabaseFile(partial);
  makePrivateDir(path.dirname(target));
  try {
    // Created 0600 before SQLite writes into it: the copy holds the password hashes, and its journal takes its mode.
    makePrivateFile(partial);
    // A read-write handle that only reads: it sees exactly what the server's connection has committed.
    const src = new Database(source, { fileMustExist: true });
    let counts: Record<string, number>;
    let at: Date;
    try {
      src.pragma('busy_timeout = 5000');
      src.pragma('query_only = ON');
      // Taken before the snapshot is: whatever was committed before `at` is in the copy.
      at = new Date();
      src.exec('BEGIN');
      counts = tableCounts(src);
      await src.backup(partial);
      src.exec('COMMIT');
    } finally {
      src.close();
    }
    const copy = new Database(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const integrity = integrityCheck(copy);
      if (integrity !== 'ok') throw new Error(`the copy failed its integrity check: ${integrity}`);
      const copied = tableCounts(copy);
      const differ = Object.keys(counts).filter((t) => copied[t] !== counts[t]);
      if (differ.length) {
        throw new Error(
          `the copy's row counts differ from the database's: ${differ.map((t) => `${t} ${copied[t]} ≠ ${counts[t]}`).join(', ')}`,
        );
      }
    } finally {
      copy.close();
    }
    fsyncFile(partial);
    fs.renameSync(partial, target);
    fsyncDir(path.dirname(target));
    return { file: target, bytes: fs.statSync(target).size, integrity: 'ok', at: at.toISOString(), counts };
  } catch (e) {
    removeDatabaseFile(partial);
    throw e;
  }
}

/**
 * An online, consistent, checked copy of the database (see `copyAndVerify`), for the command line:
 * people can keep working while it runs.
 */
export async function backupDatabase(actor: Actor, target: string): Promise<BackupDto> {
  if (actor.role !== 'admin') throw forbidden('Only an admin can back up the database.');
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw invalid(`${target} already exists; choose a new file name.`);
  return copyAndVerify(databasePath(), file);
}

/** The verified backups in `dir` (only a checked copy carries a backup's name), newest first. */
export function goodBackups(dir: string): GoodBackupDto[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: GoodBackupDto[] = [];
  for (const name of names) {
    const m = SCHEDULED.exec(name);
    if (!m) continue;
    const [, y, mo, d, h, mi, s, ms] = m;
    let bytes: number;
    try {
      bytes = fs.statSync(path.join(dir, name)).size;
    } catch {
      continue; // removed meanwhile
    }
    out.push({ file: path.join(dir, name), name, bytes, at: `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z` });
  }
  return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** The result of the newest attempt recorded in `dir`, if any. */
export function lastBackupRun(dir: string): BackupRunDto | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STATUS_FILE), 'utf8')) as BackupRunDto;
  } catch {
    return null;
  }
}

function writeStatus(dir: string, run: BackupRunDto) {
  const file = path.join(dir, STATUS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(run, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  fsyncFile(tmp);
  fs.renameSync(tmp, file);
}

/**
 * One scheduled backup into `dir`: a verified copy named by its time, then the oldest verified copies beyond the
 * newest `keep` are deleted. A failed attempt deletes nothing (so the newest good backup always survives it).
 * The attempt's result is written to `dir/last-backup.json` and returned; a failed copy is a result, not an error.
 */
export async function scheduledBackup(source: string, dir: string, keep: number, now = new Date()): Promise<BackupRunDto> {
  if (!Number.isInteger(keep) || keep < 1) throw invalid(`Keep must be a whole number of backups, at least 1 (got ${keep}).`);
  makePrivateDir(dir);
  const started = Date.now();
  let run: BackupRunDto;
  try {
    const b = await copyAndVerify(source, path.join(dir, scheduledName(now)));
    const deleted: string[] = [];
    for (const old of goodBackups(dir).slice(keep)) {
      fs.rmSync(old.file, { force: true });
      deleted.push(old.name);
    }
    run = {
      ok: true,
      at: b.at,
      finishedAt: new Date().toISOString(),
      ms: Date.now() - started,
      name: path.basename(b.file),
      bytes: b.bytes,
      counts: b.counts,
      deleted,
    };
  } catch (e) {
    run = { ok: false, at: now.toISOString(), finishedAt: new Date().toISOString(), ms: Date.now() - started, error: (e as Error).message };
  }
  writeStatus(dir, run);
  return run;
}

/** What a scheduled copy is called while it is written: `concord-<time>.db.partial`, and SQLite's files beside it. */
const STALE_PARTIAL = /^concord-\d{8}T\d{9}Z\.db\.partial(-journal|-wal|-shm)?$/;

/**
 * Removes what scheduled backups killed mid-write (the server or its backup child killed) left in `dir`: their
 * `.partial` copies and the journals beside them, which nothing else would ever remove. Only those names: the
 * folder may hold an admin's own files. Called at the server's start, before its first backup. Returns the names.
 */
export function clearStaleBackupPartials(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // no backup folder yet
  }
  const removed = names.filter((name) => STALE_PARTIAL.test(name));
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return removed;
}
