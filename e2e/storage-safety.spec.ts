import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { OwnServer, cliOn, cliProcessOn, integrityCheck, signInOverHttp, withReadonlyDb } from './support/server';

// Issue 21, points 4, 11 and 12, on servers and databases of this spec's own (ports 3741 and 3742): a server
// restarted after a crash in the middle of a large import answers at once while it undoes the import; a server
// stopped with SIGTERM leaves one whole database file that `concord restore --force` replaces, while a running one
// is refused; the files are readable by their owner only; half-written backups are gone after a start.
const PASSWORD = 'storage-safety-password';
const JUDGED_ITEMS = 20_000;
const STAGED_ITEMS = 150_000;

test.describe.configure({ mode: 'serial' });

let dir = '';
test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-storage-'));
});
test.afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** The pid of a process that has ended (a stand-in for an import child killed with -9). */
async function deadPid(): Promise<number> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return child.pid!;
}

/**
 * What a large import killed mid-write leaves, written the way the importer writes it (lib/server/imports/imports.ts):
 * an `imports` row in state 'staging' owned by a process that is gone, and its items. Beside it, a finished judge
 * run over another study's items, so the tables that reference items are not empty, as on a server in use.
 */
async function leaveAbandonedImport(db: string): Promise<{ importId: number; judgedRun: number }> {
  const study = (name: string) =>
    (JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', name, '--json'])) as { id: number }).id;
  const judged = study('Judged');
  const target = study('Imported when the server crashed');
  const pid = await deadPid();
  const sql = new Database(db, { fileMustExist: true });
  try {
    sql.pragma('busy_timeout = 5000');
    const lead = sql.prepare("SELECT id FROM users WHERE username = 'st-lead'").pluck().get() as number;
    const item = sql.prepare(
      "INSERT INTO items (study_id, external_id, position, payload, content_hash, import_id) VALUES (?, ?, ?, '{}', 'x', ?)",
    );
    const judgedRun = Number(
      sql
        .prepare(
          "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, 'J', 'concord', 'j.jsonl', '[]', ?)",
        )
        .run(judged, lead).lastInsertRowid,
    );
    const label = sql.prepare("INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, 0, 'win')");
    sql.transaction(() => {
      for (let k = 0; k < JUDGED_ITEMS; k++) {
        const id = item.run(judged, `j-${k}`, k + 1, null).lastInsertRowid;
        for (const c of ['c1', 'c2', 'c3', 'c4', 'c5']) label.run(judgedRun, id, c);
      }
    })();
    const importId = Number(
      sql
        .prepare(
          `INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, state, owner_pid, owner_host, heartbeat_at, created_by)
           VALUES (?, 'items', 'concord', 'large.jsonl', 0, 0, 0, 'staging', ?, ?, ?, ?)`,
        )
        .run(target, pid, os.hostname(), Date.now(), lead).lastInsertRowid,
    );
    sql.transaction(() => {
      for (let k = 0; k < STAGED_ITEMS; k++) item.run(target, `staged-${k}`, k + 1, importId);
    })();
    return { importId, judgedRun };
  } finally {
    sql.close();
  }
}

test('after a crash in the middle of a large import, the restarted server answers health and sign-in within 10 s and undoes the import in the background', async () => {
  test.setTimeout(300_000);
  const db = path.join(dir, 'crashed', 'concord.db');
  cliOn(db, ['user', 'add', 'st-lead', '--role', 'lead'], `${PASSWORD}\n`);
  const { importId, judgedRun } = await leaveAbandonedImport(db);
  const staged = () =>
    withReadonlyDb(db, (sql) => sql.prepare('SELECT count(*) FROM items WHERE import_id = ?').pluck().get(importId) as number);
  expect(staged()).toBe(STAGED_ITEMS);

  const server = new OwnServer(db, 3741);
  try {
    const started = Date.now();
    // /api/health answers 200 within 10 s of the start. (A server that is not answering leaves the start's own
    // health request hanging, so the 10 s are counted here.)
    const starting = server.start(10_000);
    starting.catch(() => {}); // reported by the race below
    await Promise.race([
      starting,
      new Promise((_, reject) => setTimeout(() => reject(new Error('/api/health did not answer within 10 s of the start')), 10_000)),
    ]);
    const healthMs = Date.now() - started;
    const lead = await signInOverHttp(server.baseURL, 'st-lead', PASSWORD);
    const signedInMs = Date.now() - started;
    const left = staged();
    console.log(`health after ${healthMs} ms, signed in after ${signedInMs} ms; ${left} of ${STAGED_ITEMS} staged items still to undo`);
    expect(signedInMs).toBeLessThan(10_000);
    expect((await lead.get('/api/health')).status()).toBe(200);
    expect(left).toBeGreaterThan(0); // the server answered while the undo was still going

    // The undo finishes: none of the import is left, nothing else was touched, and the file is sound.
    await expect.poll(staged, { timeout: 180_000, intervals: [500] }).toBe(0);
    await expect
      .poll(() => withReadonlyDb(db, (sql) => sql.prepare('SELECT count(*) FROM imports WHERE id = ?').pluck().get(importId)), {
        timeout: 10_000,
      })
      .toBe(0);
    withReadonlyDb(db, (sql) => {
      expect(sql.prepare('SELECT count(*) FROM judge_labels WHERE run_id = ?').pluck().get(judgedRun)).toBe(JUDGED_ITEMS * 5);
      expect(integrityCheck(sql)).toBe('ok');
    });
    await lead.dispose();
  } finally {
    await server.kill9();
  }
});

test('a running server holds its database: restore --force is refused; after SIGTERM no WAL is left and restore --force replaces it', async () => {
  test.setTimeout(180_000);
  const data = path.join(dir, 'stopped', 'data');
  const db = path.join(data, 'concord.db');
  const backups = path.join(dir, 'stopped', 'backups');
  cliOn(db, ['user', 'add', 'st-admin', '--role', 'admin'], `${PASSWORD}\n`);
  const backup = path.join(dir, 'stopped', 'before.db');
  cliOn(db, ['backup', backup]);
  // What scheduled backups killed mid-write leave in their folder, beside an admin's own file.
  fs.mkdirSync(backups, { recursive: true });
  const stale = ['concord-20260101T000000000Z.db.partial', 'concord-20260101T000000000Z.db.partial-journal'];
  for (const f of [...stale, 'notes.txt']) fs.writeFileSync(path.join(backups, f), 'x');

  const server = new OwnServer(db, 3742, { CONCORD_BACKUP_DIR: backups });
  await server.start(60_000);
  try {
    expect(fs.readdirSync(backups)).toEqual(['notes.txt']);
    const admin = await signInOverHttp(server.baseURL, 'st-admin', PASSWORD); // writes (sign-in attempts) go to the WAL
    cliOn(db, ['user', 'add', 'st-later', '--role', 'annotator'], `${PASSWORD}\n`); // a row the backup does not have
    expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`), mode(data), mode(backup)]).toEqual([0o600, 0o600, 0o600, 0o700, 0o600]);
    // Restore in a process of its own: "in use" is SQLite's lock, which only another process's connection holds.
    expect(() => cliProcessOn(db, ['restore', backup, '--to', db, '--force'])).toThrow(/in use/);
    expect((await admin.get('/api/health')).status()).toBe(200); // refused, and the server goes on
    await admin.dispose();

    const proc = server.proc!;
    process.kill(proc.child.pid!, 'SIGTERM');
    expect(await proc.exited).toMatchObject({ code: expect.any(Number) });
    server.proc = null;
  } finally {
    await server.kill9();
  }
  // Closed cleanly: the WAL was checkpointed into the file and removed (or cut to nothing).
  expect(fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0).toBe(0);
  withReadonlyDb(db, (sql) => expect(sql.prepare("SELECT count(*) FROM users WHERE username = 'st-later'").pluck().get()).toBe(1));

  const out = cliProcessOn(db, ['restore', backup, '--to', db, '--force']);
  expect(out).toContain('Restored');
  withReadonlyDb(db, (sql) => expect(sql.prepare("SELECT count(*) FROM users WHERE username = 'st-later'").pluck().get()).toBe(0));
  expect(mode(db)).toBe(0o600);
});
