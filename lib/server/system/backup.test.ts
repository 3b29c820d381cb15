import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, knownMigrations, openDatabase } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { holdDatabase } from '@/test/hold-database';
import { databasePath } from '@/lib/env';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { getFlowAssignment, getQueue, submitFlowReview } from '../review/flow-review';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { clearStaleBackupPartials, copyAndVerify, goodBackups, lastBackupRun, scheduledBackup, scheduledName } from './backup';
import { BackupSchedule } from './backup-schedule';
import { STATUS_FILE as STATUS } from './backup';
import { restoreDatabase } from './restore';

const { dir } = useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const REVIEWERS = 6;

let reviewers: Actor[];
let study: number;
let n = 0;
const sub = (name: string) => {
  const d = path.join(dir, `${name}-${++n}`);
  fs.mkdirSync(d);
  return d;
};
// A read-write handle: closing it removes the WAL files SQLite makes beside a WAL-mode database.
const count = (file: string, table: string) => {
  const db = new Database(file, { fileMustExist: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
};
const at = (iso: string) => new Date(iso);
/** The permission bits of a file or folder. */
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** One reviewer's next item submitted (verify); returns the assignment id. */
function submitNext(rev: Actor, tag: string): number | null {
  const id = getQueue(rev, study).currentId;
  if (id === null) return null;
  getFlowAssignment(rev, id);
  submitFlowReview(rev, { assignmentId: id, requestId: `${tag}-${id}-xxxxxxxx`, activeMs: 1000, decision: { decision: 'verify' } });
  return id;
}

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  reviewers = [];
  for (let i = 0; i < REVIEWERS; i++) reviewers.push(await makeUser(`rev${i}`));
  study = createStudy(lead, { kind: 'flow_review', name: 'Flows', reviewersPerItem: REVIEWERS, seed: 1 }).id;
  // The KMP-style flows, many times over under new ids: enough items to keep six reviewers busy.
  const base = fs.readFileSync(path.join(SEED, 'flows.jsonl'), 'utf8').trim().split('\n');
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(JSON.stringify({ ...JSON.parse(base[i % base.length]), id: `b-${i}` }));
  fs.writeFileSync(path.join(dir, 'flows.jsonl'), `${lines.join('\n')}\n`);
  importItems(lead, study, path.join(dir, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, study, { usernames: reviewers.map((r) => r.username) });
  openStudy(lead, study);
  for (const r of reviewers) submitNext(r, 'warm');
});

describe('a verified copy', () => {
  it('holds the rows of the moment it was taken, as one self-contained file', async () => {
    const target = path.join(sub('copy'), 'copy.db');
    const b = await copyAndVerify(databasePath(), target);
    expect(b.integrity).toBe('ok');
    expect(b.counts.annotations).toBe(count(databasePath(), 'annotations'));
    expect(b.counts.annotations).toBeGreaterThanOrEqual(REVIEWERS);
    expect(count(target, 'annotations')).toBe(b.counts.annotations);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['copy.db']); // no .partial, no WAL beside it
    const db = new Database(target, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
  });

  it('leaves nothing under the backup name when the copy fails', async () => {
    const d = sub('fail');
    await expect(copyAndVerify(path.join(d, 'missing.db'), path.join(d, 'x.db'))).rejects.toThrow();
    expect(fs.readdirSync(d)).toEqual([]);
  });
});

describe('scheduled backups', () => {
  it('keep the newest N verified copies and record each attempt', async () => {
    const d = sub('keep');
    const times = ['2026-01-01T00:00:00.000Z', '2026-01-01T06:00:00.000Z', '2026-01-01T12:00:00.000Z', '2026-01-01T18:00:00.000Z'];
    for (const t of times) {
      const run = await scheduledBackup(databasePath(), d, 2, at(t));
      expect(run.ok).toBe(true);
      expect(lastBackupRun(d)).toEqual(run);
    }
    expect(goodBackups(d).map((b) => b.name)).toEqual([scheduledName(at(times[3])), scheduledName(at(times[2]))]);
    expect(goodBackups(d)[0].at).toBe(times[3]);
    const last = lastBackupRun(d)!;
    expect(last.ok && last.deleted).toEqual([scheduledName(at(times[1]))]);
  });

  it('never delete the newest good backup because a new attempt failed', async () => {
    const d = sub('failing');
    expect((await scheduledBackup(databasePath(), d, 1, at('2026-02-01T00:00:00.000Z'))).ok).toBe(true);
    const good = goodBackups(d);
    const failed = await scheduledBackup(path.join(d, 'no-such.db'), d, 1, at('2026-02-01T06:00:00.000Z'));
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.error).toMatch(/no-such\.db|unable to open/i);
    expect(goodBackups(d)).toEqual(good);
    expect(lastBackupRun(d)).toEqual(failed);
  });

  it('refuse a keep below 1', async () => {
    await expect(scheduledBackup(databasePath(), sub('k0'), 0)).rejects.toThrow(/at least 1/);
  });

  it('run on the schedule, the first at once when there is no backup yet; health shows a name and size to admins only', async () => {
    const d = sub('timer');
    const schedule = new BackupSchedule({ source: databasePath(), every: '1s', everyMs: 1000, keep: 2, dir: d }, scheduledBackup);
    expect(schedule.health(false)).toEqual({ scheduled: true, state: 'none', newestAt: null, ageSeconds: null });
    schedule.start();
    try {
      const deadline = Date.now() + 15_000;
      while (goodBackups(d).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // two attempts a second apart: the first at start, the next one on the schedule
      expect(goodBackups(d).length).toBe(2);
    } finally {
      schedule.stop();
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(goodBackups(d).length).toBe(2); // keep 2, and no attempt after stop
    const open = schedule.health(false);
    expect(open).toEqual({ scheduled: true, state: 'ok', newestAt: goodBackups(d)[0].at, ageSeconds: expect.any(Number) });
    expect(JSON.stringify(open)).not.toContain(d);
    const admin = schedule.health(true);
    expect(admin).toMatchObject({ name: goodBackups(d)[0].name, bytes: goodBackups(d)[0].bytes });
    expect(JSON.stringify(admin)).not.toContain(d);
  });

  it('wait for the rest of the period when a recent backup exists, and report a failing attempt', async () => {
    const d = sub('recent');
    await scheduledBackup(databasePath(), d, 3);
    const schedule = new BackupSchedule({ source: path.join(d, 'gone.db'), every: '1h', everyMs: 3_600_000, keep: 3, dir: d });
    schedule.start();
    const due = Date.parse(schedule.status().nextAt!) - Date.now();
    schedule.stop();
    expect(due).toBeGreaterThan(3_500_000);
    // one attempt now, in the child process the server uses; the source is missing, so it fails
    const run = await schedule.runNow();
    expect(run.ok).toBe(false);
    expect(schedule.health(false).state).toBe('failing');
    expect(schedule.health(false).newestAt).toBe(goodBackups(d)[0].at);
    expect(goodBackups(d).length).toBe(1);
  });

  it('are seen by a server process without the timer from the folder, within a second, and never written by it', async () => {
    const d = sub('reader');
    const config = { source: databasePath(), every: '1h', everyMs: 3_600_000, keep: 3, dir: d };
    let attempts = 0;
    const reader = new BackupSchedule(config, async (...args) => (attempts++, scheduledBackup(...args)), false);
    reader.start();
    expect(reader.status().nextAt).toBeNull(); // no timer here, and no backup yet to count a period from
    expect(reader.health(false).state).toBe('none');
    // The process with the timer writes one.
    const run = await scheduledBackup(databasePath(), d, 3);
    expect(run.ok).toBe(true);
    // Read again at most once a second: just after start it still answers what it read then.
    expect(reader.health(false, Date.now()).state).toBe('none');
    await new Promise((r) => setTimeout(r, 1100));
    const health = reader.health(false);
    expect(health).toMatchObject({ state: 'ok', newestAt: goodBackups(d)[0].at });
    expect(Date.parse(reader.status().nextAt!)).toBe(Date.parse(goodBackups(d)[0].at) + 3_600_000);
    reader.stop();
    expect(attempts).toBe(0);
  });

  it('are off without CONCORD_BACKUP_EVERY', () => {
    const schedule = new BackupSchedule({ source: databasePath(), every: null, everyMs: null, keep: 3, dir: sub('off') });
    schedule.start();
    expect(schedule.status().nextAt).toBeNull();
    expect(schedule.health(true)).toEqual({ scheduled: false, state: 'off', newestAt: null, ageSeconds: null });
  });

  it('take a good copy in the child process the server uses', async () => {
    const d = sub('child');
    const schedule = new BackupSchedule({ source: databasePath(), every: '6h', everyMs: 6 * 3_600_000, keep: 3, dir: d });
    const run = await schedule.runNow();
    expect(run).toMatchObject({ ok: true, counts: { annotations: count(databasePath(), 'annotations') } });
    expect(schedule.status().newest?.name).toBe(run.ok && run.name);
    // Written by the child, readable by the owner only: it holds the password hashes.
    expect(mode(path.join(d, run.ok ? run.name : ''))).toBe(0o600);
  });
});

describe('a backup taken while reviewers submit', () => {
  it('holds every submission acknowledged before it started, once, and restores into a fresh folder', async () => {
    const acked: { id: number; at: number }[] = [];
    let stop = false;
    // Reviewers submitting on the process connection (each submission its own transaction), between the
    // backup's steps on its own connection.
    const writers = reviewers.map(async (rev, k) => {
      while (!stop) {
        const id = submitNext(rev, `w${k}`);
        if (id === null) break;
        acked.push({ id, at: Date.now() });
        await new Promise((r) => setImmediate(r));
      }
    });
    await new Promise((r) => setTimeout(r, 100));
    const backupDir = sub('during');
    const b = await copyAndVerify(databasePath(), path.join(backupDir, 'during.db'));
    const duringBackup = acked.filter((a) => a.at >= Date.parse(b.at)).length;
    await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all(writers);
    const before = acked.filter((a) => a.at < Date.parse(b.at));
    expect(before.length).toBeGreaterThan(0);
    expect(duringBackup).toBeGreaterThan(0); // the writers really ran while the copy was made

    const fresh = path.join(sub('fresh'), 'data', 'concord.db');
    const r = await restoreDatabase(path.join(backupDir, 'during.db'), fresh);
    expect(r.keptAs).toBeNull();
    const restored = new Database(fresh, { readonly: true });
    try {
      const per = restored.prepare('SELECT count(*) FROM annotations WHERE assignment_id = ?').pluck();
      const missing = before.filter((a) => per.get(a.id) !== 1);
      expect(missing).toEqual([]);
      expect(restored.prepare('SELECT count(*) FROM annotations').pluck().get()).toBe(b.counts.annotations);
    } finally {
      restored.close();
    }
    // the restored file is a working Concord database
    const db = openDatabase(fresh);
    expect(db.$client.prepare('SELECT count(*) FROM users').pluck().get()).toBe(b.counts.users);
    db.$client.close();
  });
});

describe('restore', () => {
  let good: string;
  beforeAll(async () => {
    good = path.join(sub('good'), 'good.db');
    await copyAndVerify(databasePath(), good);
  });

  it('refuses a missing file, a file that is not SQLite and an SQLite file that is not Concord', async () => {
    const d = sub('refuse');
    const target = path.join(d, 'concord.db');
    await expect(restoreDatabase(path.join(d, 'nope.db'), target)).rejects.toThrow(/does not exist/);
    fs.writeFileSync(path.join(d, 'text.db'), 'id,name\n1,a\n'.repeat(500));
    await expect(restoreDatabase(path.join(d, 'text.db'), target)).rejects.toThrow(/not a Concord database|cannot be opened/);
    const other = new Database(path.join(d, 'other.db'));
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    other.close();
    await expect(restoreDatabase(path.join(d, 'other.db'), target)).rejects.toThrow(
      /not a Concord database: it has no __drizzle_migrations/,
    );
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(d).filter((f) => f.includes('restore'))).toEqual([]);
  });

  it('refuses a damaged backup', async () => {
    const d = sub('damaged');
    const bad = path.join(d, 'bad.db');
    fs.copyFileSync(good, bad);
    // Overwrite a stretch of pages past the schema with garbage, as a failing disk would.
    const size = fs.statSync(bad).size;
    const fd = fs.openSync(bad, 'r+');
    fs.writeSync(fd, Buffer.alloc(8 * 4096, 0xa5), 0, 8 * 4096, Math.floor(size / 2 / 4096) * 4096);
    fs.closeSync(fd);
    const target = path.join(d, 'concord.db');
    await expect(restoreDatabase(bad, target)).rejects.toThrow(/damaged|malformed|not a Concord/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a backup whose schema is newer than this code', async () => {
    const d = sub('newer');
    const newer = path.join(d, 'newer.db');
    fs.copyFileSync(good, newer);
    const db = new Database(newer);
    db.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', knownMigrations().newest + 1000);
    db.close();
    await expect(restoreDatabase(newer, path.join(d, 'concord.db'))).rejects.toThrow(/newer Concord/);
  });

  it('replaces an existing database only with --force, keeping it beside, and never one in use', async () => {
    const d = sub('force');
    const target = path.join(d, 'concord.db');
    const old = openDatabase(target); // an empty, migrated Concord database
    await expect(restoreDatabase(good, target)).rejects.toThrow(/already exists.*--force/);
    await expect(restoreDatabase(good, target, { force: true })).rejects.toThrow(/in use/);
    old.$client.close();
    const r = await restoreDatabase(good, target, { force: true });
    expect(r.keptAs).toMatch(/concord\.db\.before-restore-\d{8}T\d{6}Z$/);
    expect(count(r.keptAs!, 'annotations')).toBe(0);
    expect(count(target, 'annotations')).toBe(count(good, 'annotations'));
    expect(fs.readdirSync(d).sort()).toEqual(['concord.db', path.basename(r.keptAs!)].sort());
  });

  it('replaces, with --force, a stopped database whose WAL a killed server left, keeping what the WAL held', async () => {
    const d = sub('stopped');
    const target = path.join(d, 'concord.db');
    openDatabase(target).$client.close();
    const server = await holdDatabase(target);
    await server.kill9(); // as kill -9 of the server: its WAL stays, with a row that is nowhere else
    expect(fs.statSync(`${target}-wal`).size).toBeGreaterThan(0);
    const r = await restoreDatabase(good, target, { force: true });
    expect(count(target, 'annotations')).toBe(count(good, 'annotations'));
    const kept = new Database(r.keptAs!, { readonly: true });
    try {
      expect(kept.prepare('SELECT value FROM app_settings WHERE key = ?').pluck().get(`held-by-${server.pid}`)).toBe('x');
    } finally {
      kept.close();
    }
    expect(fs.readdirSync(d).sort()).toEqual(['concord.db', path.basename(r.keptAs!)].sort());
  });

  it('refuses a database another process has open, even one whose WAL was just checkpointed away, and leaves it as it was', async () => {
    const d = sub('held');
    const target = path.join(d, 'concord.db');
    openDatabase(target).$client.close();
    const server = await holdDatabase(target);
    try {
      await expect(restoreDatabase(good, target, { force: true })).rejects.toThrow(/in use.*Stop the Concord server/);
      // A live process whose WAL file is gone (checkpointed and removed) is still refused: the lock decides, not the file.
      const other = new Database(target);
      other.pragma('wal_checkpoint(TRUNCATE)');
      other.close();
      fs.rmSync(`${target}-wal`, { force: true });
      await expect(restoreDatabase(good, target, { force: true })).rejects.toThrow(/in use/);
      expect(fs.readdirSync(d).filter((f) => f.includes('before-restore') || f.includes('.tmp'))).toEqual([]);
    } finally {
      await server.kill9();
    }
    expect(count(target, 'app_settings')).toBeGreaterThanOrEqual(1);
  });

  it('restores a copy of the live database that the next start opens and migrates as usual', async () => {
    const target = path.join(sub('live'), 'concord.db');
    await restoreDatabase(good, target);
    const db = openDatabase(target);
    const live = getDb().$client.prepare('SELECT count(*) FROM studies').pluck().get();
    expect(db.$client.prepare('SELECT count(*) FROM studies').pluck().get()).toBe(live);
    db.$client.close();
  });
});

describe('files that hold the password hashes', () => {
  // The test process's umask is the usual 022: anything created without a mode of its own would be 0644 / 0755.
  it('are created 0600 in 0700 folders: the database, its WAL and shared memory', () => {
    const file = path.join(sub('modes'), 'fresh', 'data', 'concord.db');
    const db = openDatabase(file);
    try {
      db.$client.prepare("INSERT INTO app_settings (key, value) VALUES ('mode-test', '1')").run();
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect([file, `${file}-wal`, `${file}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600]);
      expect([path.dirname(file), path.dirname(path.dirname(file))].map(mode)).toEqual([0o700, 0o700]);
    } finally {
      db.$client.close();
    }
  });

  it('narrows an existing database left readable by everyone', () => {
    const file = path.join(sub('old-modes'), 'concord.db');
    openDatabase(file).$client.close();
    fs.chmodSync(file, 0o644);
    const db = openDatabase(file);
    db.$client.close();
    expect(mode(file)).toBe(0o600);
  });

  it('are backups and their folder, the backup status, and a restored database and its new folder', async () => {
    const backups = path.join(sub('backup-modes'), 'backups');
    const run = await scheduledBackup(databasePath(), backups, 2);
    expect(run.ok).toBe(true);
    expect(mode(backups)).toBe(0o700);
    expect(fs.readdirSync(backups).map((f) => [f, mode(path.join(backups, f))])).toEqual(fs.readdirSync(backups).map((f) => [f, 0o600]));
    const manual = path.join(sub('manual'), 'by-hand', 'copy.db');
    await copyAndVerify(databasePath(), manual);
    expect([mode(manual), mode(path.dirname(manual))]).toEqual([0o600, 0o700]);
    const restored = path.join(sub('restored-modes'), 'new-data', 'concord.db');
    await restoreDatabase(manual, restored);
    expect([mode(restored), mode(path.dirname(restored))]).toEqual([0o600, 0o700]);
  });
});

describe('half-written backups', () => {
  it("are removed at the server's start (their .partial and its journal), and nothing else in the folder", async () => {
    const d = sub('partials');
    await scheduledBackup(databasePath(), d, 3, at('2026-03-01T00:00:00.000Z'));
    const good = goodBackups(d).map((b) => b.name);
    // What a backup killed mid-write leaves (the server or its child killed with -9), and an admin's own files.
    const stale = ['concord-20260301T060000000Z.db.partial', 'concord-20260301T060000000Z.db.partial-journal'];
    const mine = ['notes.partial', 'concord.db.partial', 'my-copy.db-journal'];
    for (const f of [...stale, ...mine]) fs.writeFileSync(path.join(d, f), 'x');
    expect(clearStaleBackupPartials(d).sort()).toEqual([...stale].sort());
    expect(fs.readdirSync(d).sort()).toEqual([...good, STATUS, ...mine].sort());
    expect(clearStaleBackupPartials(path.join(d, 'missing'))).toEqual([]);
  });
});
