import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { databasePath } from '@/lib/env';
import { makePrivateDatabaseFile, makePrivateDir } from './private-files';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * The size the write-ahead log is cut back to once a checkpoint has copied it into the database. Checkpoints keep
 * it at a few MB, but a reader holding an old snapshot (an online backup, a streamed export) while a large import
 * writes lets it grow (248 MB in the soak benchmark), and SQLite never shrinks the file on its own.
 */
export const WAL_SIZE_LIMIT = 32 * 1024 * 1024;

const REQUIRED_PRAGMAS = {
  journal_mode: 'wal',
  foreign_keys: 1,
  synchronous: 2,
  busy_timeout: 5000,
  journal_size_limit: WAL_SIZE_LIMIT,
} as const;

function migrationsFolder(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.CONCORD_MIGRATIONS ?? path.join(process.cwd(), 'db', 'migrations'));
}

/** The migrations this code knows (drizzle's journal): how many, and the newest one's time as drizzle records it. */
export function knownMigrations(): { count: number; newest: number } {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return { count: journal.entries.length, newest: Math.max(0, ...journal.entries.map((e) => e.when)) };
}

/**
 * Opens a connection with the pragmas Concord relies on and fails loudly if SQLite did not accept them. The file
 * (and the folder, if this creates it) is readable by its owner only: it holds password hashes (private-files.ts).
 */
export function openDatabase(file: string): Db {
  makePrivateDir(path.dirname(file));
  makePrivateDatabaseFile(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const actual = {
    journal_mode: sqlite.pragma('journal_mode', { simple: true }),
    foreign_keys: sqlite.pragma('foreign_keys', { simple: true }),
    synchronous: sqlite.pragma('synchronous', { simple: true }),
    busy_timeout: sqlite.pragma('busy_timeout', { simple: true }),
    journal_size_limit: sqlite.pragma('journal_size_limit', { simple: true }),
  };
  for (const [name, want] of Object.entries(REQUIRED_PRAGMAS)) {
    if (actual[name as keyof typeof actual] !== want) {
      sqlite.close();
      throw new Error(`SQLite pragma ${name} is ${String(actual[name as keyof typeof actual])}, expected ${want} (${file})`);
    }
  }
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: migrationsFolder() });
  return db;
}

const globalForDb = globalThis as unknown as { concordDb?: Db };

/** The process's single connection, opened and migrated on first use. A failed migration throws. */
export function getDb(): Db {
  if (!globalForDb.concordDb) globalForDb.concordDb = openDatabase(databasePath());
  return globalForDb.concordDb;
}

/**
 * At the end of a process (the server stopped with SIGTERM or SIGINT, which Next answers with `process.exit`): the
 * WAL is copied into the database file and cut to nothing, then the connection is closed, and the last connection
 * to close removes the WAL file. A stopped Concord leaves one self-contained database file that a copy or
 * `concord restore` can take as it is. A checkpoint that cannot finish (another process is reading) is left to them.
 */
export function checkpointAndCloseDb(): void {
  const db = globalForDb.concordDb;
  if (!db?.$client.open) return;
  try {
    db.$client.pragma('busy_timeout = 1000'); // an exit is not held up for the usual 5 s
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
  } catch (e) {
    console.error('Concord: the WAL could not be checkpointed at exit', e);
  } finally {
    closeDb();
  }
}

/** For tests and the CLI: close the process connection so the file can be removed or reopened. */
export function closeDb(): void {
  globalForDb.concordDb?.$client.close();
  globalForDb.concordDb = undefined;
}

/**
 * A separate connection that only reads, holding one snapshot (a read transaction) for a long streamed read such as
 * an export, so the process connection stays free for other requests while the stream is consumed.
 * The caller must call `close()`.
 */
export function openSnapshot(): { db: Db; close: () => void } {
  getDb(); // the file exists and is migrated
  // A read-write handle that only reads: a read-only handle maps the WAL index read-only and was seen to miss
  // recent commits of a running server; this one reads exactly what the process connection would.
  const sqlite = new Database(databasePath(), { fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('query_only = ON');
  sqlite.exec('BEGIN');
  const db = drizzle(sqlite, { schema }) as Db;
  return {
    db,
    close: () => {
      if (sqlite.open) {
        if (sqlite.inTransaction) sqlite.exec('COMMIT');
        sqlite.close();
      }
    },
  };
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const preparedQueries = new WeakMap<Database.Database, Map<string, unknown>>();

/**
 * A statement of this connection, prepared once and reused: requests run the same few dozen statements again and
 * again, and preparing one costs more than running it. Each SQL text is used at one call site with one mode
 * (`pluck`, `raw`). Not for a statement that is iterated: it cannot run again until its iteration has ended.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let bySql = statements.get(db.$client);
  if (!bySql) statements.set(db.$client, (bySql = new Map()));
  let statement = bySql.get(sql);
  if (!statement) bySql.set(sql, (statement = db.$client.prepare(sql)));
  return statement;
}

/** A Drizzle query of this connection, built and prepared once under `key` (with `sql.placeholder` parameters). */
export function preparedQuery<T>(db: Db, key: string, build: () => T): T {
  let byKey = preparedQueries.get(db.$client);
  if (!byKey) preparedQueries.set(db.$client, (byKey = new Map()));
  let query = byKey.get(key) as T | undefined;
  if (query === undefined) byKey.set(key, (query = build()));
  return query;
}

/**
 * Runs one small bookkeeping write without waiting for the disk: `synchronous = NORMAL` for its commit, FULL again
 * after. In WAL mode the database stays whole after a crash or a power cut either way; what NORMAL risks is only
 * this write (the next FULL commit, such as any submission, makes it durable too). Profiled under load, the fsync
 * of "first served at" on every newly opened item held the server's event loop ~1.8 ms per item
 * (BENCHMARKS.md, "Where the server's time goes"). Only for writes whose loss loses nobody's work: never a
 * label, a draft or anything a person was told is saved. Inside a transaction it simply runs (the transaction's
 * own commit decides).
 */
export function withoutWaitingForDisk<T>(db: Db, fn: () => T): T {
  const c = db.$client;
  if (c.inTransaction) return fn();
  c.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    c.pragma('synchronous = FULL');
  }
}

/**
 * Runs `fn` in one SQLite transaction on the process connection (IMMEDIATE by default: it takes the write lock
 * first, so a read-then-write inside cannot race another writer). `fn` must be synchronous.
 */
export function inTransaction<T>(db: Db, fn: () => T, behavior: 'deferred' | 'immediate' = 'immediate'): T {
  return db.$client.transaction(fn)[behavior]();
}
