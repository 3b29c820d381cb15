import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { knownMigrations } from '@/db/client';
import { makePrivateDir, makePrivateFile } from '@/db/private-files';
import { COUNTED_TABLES, appliedMigrations, integrityCheck, tableCounts, tableNames } from '@/db/queries/system';
import { invalid } from '../errors';
import { fsyncDir } from './backup';
import type { RestoreDto } from './dto';

/** Opens `file` read-only and says what is wrong with it as a Concord backup, or returns its migrations and counts. */
function inspect(file: string): { migrations: number; counts: Record<string, number> } {
  if (!fs.existsSync(file)) throw invalid(`${file} does not exist.`);
  if (!fs.statSync(file).isFile()) throw invalid(`${file} is not a file.`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw invalid(`${file} cannot be opened as a database: ${(e as Error).message}`);
  }
  try {
    let tables: Set<string>;
    try {
      tables = tableNames(db);
    } catch (e) {
      throw invalid(`${file} is not a Concord database (not an SQLite file: ${(e as Error).message}).`);
    }
    const missing = ['__drizzle_migrations', ...COUNTED_TABLES].filter((t) => !tables.has(t));
    if (missing.length)
      throw invalid(`${file} is not a Concord database: it has no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}.`);
    let integrity: string;
    try {
      integrity = integrityCheck(db);
    } catch (e) {
      integrity = (e as Error).message;
    }
    if (integrity !== 'ok') throw invalid(`${file} is damaged: the integrity check says ${integrity.slice(0, 500)}`);
    const applied = appliedMigrations(db);
    const known = knownMigrations();
    if (applied.newest > known.newest || applied.count > known.count) {
      throw invalid(
        `${file} was written by a newer Concord: ${applied.count} migrations applied, this version knows ${known.count}. ` +
          'Restore it with that version or a later one.',
      );
    }
    return { migrations: applied.count, counts: tableCounts(db) };
  } finally {
    db.close();
  }
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * Takes the existing database `file` for this process alone, or says who has it. "In use" is decided by SQLite's
 * own lock, not by files lying about (docs/decisions/0018-restore-lock.md): every Concord connection (server, CLI,
 * their children) keeps a shared lock on its WAL-mode database file while it is open, and the kernel drops it when
 * the process ends, even by kill -9. An exclusive lock granted at once therefore means nobody has the file open.
 * Holding it, the WAL that a stopped server may have left is copied into the file and removed (the database is
 * switched to a rollback journal, as a backup is; the next start switches it back), so the file is complete on its
 * own and closing this connection later touches no WAL of whatever then has the name. Close the handle when done.
 */
function lockStoppedDatabase(file: string): Database.Database {
  const lock = new Database(file, { fileMustExist: true });
  try {
    lock.pragma('busy_timeout = 0');
    lock.pragma('locking_mode = EXCLUSIVE');
    try {
      lock.exec('BEGIN EXCLUSIVE');
      lock.exec('COMMIT');
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_BUSY')
        throw invalid(`${file} is in use: a Concord server or command has it open. Stop the Concord server first.`);
      throw e;
    }
    if (lock.pragma('journal_mode = DELETE', { simple: true }) !== 'delete')
      throw invalid(`${file} could not be taken out of WAL mode; stop every process that uses it and try again.`);
    return lock;
  } catch (e) {
    lock.close();
    throw e;
  }
}

/**
 * Puts the backup `source` in place as the database `target`, atomically: the backup is checked (an SQLite file
 * holding Concord's tables, `integrity_check` ok, no migration newer than this code), copied to a temporary file
 * in the target's folder through SQLite's backup API, checked again, fsynced and renamed over the target. A
 * crash at any point leaves either the old database or the restored one, never half of one.
 * An existing target is refused unless `force`; with `force` it is kept beside, as `TARGET.before-restore-TIME`,
 * with everything its WAL held. A target in use (another process has it open, `lockStoppedDatabase`) is always
 * refused: stop the server first. The lock is held until the new file has the name, so a server started meanwhile
 * cannot write into the old file (it waits for its busy timeout, then refuses to start). A backup older than this
 * code is restored as it is; the next start migrates it.
 */
export async function restoreDatabase(source: string, target: string, { force = false, now = new Date() } = {}): Promise<RestoreDto> {
  const from = path.resolve(source);
  const to = path.resolve(target);
  if (from === to) throw invalid('The backup and the database to restore into are the same file.');
  const checked = inspect(from);
  const dir = path.dirname(to);
  makePrivateDir(dir);

  const exists = fs.existsSync(to);
  if (exists) {
    if (!force)
      throw invalid(
        `${to} already exists. Stop the server and add --force to replace it (it is kept as ${path.basename(to)}.before-restore-…).`,
      );
  }
  const lock = exists ? lockStoppedDatabase(to) : null;

  const tmp = path.join(dir, `.${path.basename(to)}.restore-${process.pid}.tmp`);
  const clean = () => {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}-journal`]) fs.rmSync(f, { force: true });
  };
  clean();
  try {
    makePrivateFile(tmp); // 0600 before SQLite writes the password hashes into it (private-files.ts)
    const src = new Database(from, { readonly: true, fileMustExist: true });
    try {
      await src.backup(tmp);
    } finally {
      src.close();
    }
    const copy = new Database(tmp, { fileMustExist: true });
    let counts: Record<string, number>;
    try {
      copy.pragma('journal_mode = DELETE');
      const integrity = integrityCheck(copy);
      if (integrity !== 'ok') throw new Error(`the restored copy failed its integrity check: ${integrity}`);
      counts = tableCounts(copy);
      const differ = Object.keys(counts).filter((t) => counts[t] !== checked.counts[t]);
      if (differ.length) throw new Error(`the restored copy's row counts differ from the backup's (${differ.join(', ')})`);
    } finally {
      copy.close();
    }
    const fd = fs.openSync(tmp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    let keptAs: string | null = null;
    if (exists) {
      keptAs = `${to}.before-restore-${stamp(now)}`;
      if (fs.existsSync(keptAs)) throw invalid(`${keptAs} already exists; try again in a second.`);
      // A second name for the old file, then one rename over it: the target is the old or the new database at every moment.
      fs.linkSync(to, keptAs);
      fs.rmSync(`${to}-shm`, { force: true });
    }
    fs.renameSync(tmp, to);
    fsyncDir(dir);
    return { file: from, target: to, bytes: fs.statSync(to).size, migrations: checked.migrations, keptAs, counts };
  } finally {
    lock?.close();
    clean();
  }
}
