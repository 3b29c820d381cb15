import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { flowsJsonl } from '@/e2e/support/server';
import type { Actor } from '../actor';
import { STALE_IMPORT_MS, recoverAbandonedImports, recoverAbandonedImportsInBackground } from './import-staging';
import { importItems } from './imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
const count = (q: string, ...a: unknown[]) =>
  sql()
    .prepare(q)
    .pluck()
    .get(...a) as number;

let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  await makeUser('ann');
});

const newStudy = (name: string) => createStudy(lead, { kind: 'flow_review', name, reviewersPerItem: 1 }).id;

/** A staging import as another process leaves it: `items` of its items written, owned by `pid`. */
function fakeStaging(studyId: number, pid: number, heartbeatAt: number, items: number): number {
  const id = Number(
    sql()
      .prepare(
        `INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, state, owner_pid, owner_host, heartbeat_at, created_by)
         VALUES (?, 'items', 'concord', 'other.jsonl', 0, 0, 0, 'staging', ?, ?, ?, ?)`,
      )
      .run(studyId, pid, os.hostname(), heartbeatAt, lead.id).lastInsertRowid,
  );
  const insert = sql().prepare(
    "INSERT INTO items (study_id, external_id, position, payload, content_hash, import_id) VALUES (?, ?, ?, '{}', 'x', ?)",
  );
  for (let k = 0; k < items; k++) insert.run(studyId, `staged-${id}-${k}`, 100_000 + id * 1000 + k, id);
  return id;
}

function sleeper(): ChildProcess {
  return spawn('sleep', ['60'], { stdio: 'ignore' });
}

describe('imports written in batches', () => {
  it('marks the import done and every item with it', () => {
    const studyId = newStudy('Batches');
    const file = writeTemp(dir, 'many.jsonl', flowsJsonl('many', 1_234));
    expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ records: 1_234, inserted: 1_234, unchanged: 0 });
    const row = sql()
      .prepare('SELECT id, state, records, inserted, owner_pid AS pid, heartbeat_at AS hb FROM imports WHERE study_id = ?')
      .get(studyId);
    expect(row).toMatchObject({ state: 'done', records: 1_234, inserted: 1_234, pid: null, hb: null });
    expect(count('SELECT count(*) FROM items WHERE study_id = ? AND import_id = ?', studyId, (row as { id: number }).id)).toBe(1_234);
    expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ inserted: 0, unchanged: 1_234 });
  });

  it('refuses a second import and opening the study while another process is importing, and goes on once it is gone', async () => {
    const studyId = newStudy('Busy');
    const other = sleeper();
    try {
      const staged = fakeStaging(studyId, other.pid!, Date.now(), 700);
      const file = writeTemp(dir, 'busy.jsonl', flowsJsonl('busy', 10));
      expect(codeOf(() => importItems(lead, studyId, file, 'concord'))).toBe('conflict');
      setStudyMembers(lead, studyId, { usernames: ['ann'] });
      expect(codeOf(() => openStudy(lead, studyId))).toBe('conflict');
      expect(recoverAbandonedImports(getDb())).toBe(0); // alive and recent: left alone
      expect(count('SELECT count(*) FROM items WHERE import_id = ?', staged)).toBe(700);
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect(recoverAbandonedImports(getDb())).toBe(1);
      expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
      expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ inserted: 10 });
      expect(openStudy(lead, studyId).status).toBe('open');
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('undoes an import whose process is gone, or whose heartbeat stopped, and only those', async () => {
    const studyId = newStudy('Abandoned');
    const gone = sleeper();
    const alive = sleeper();
    try {
      const deadPid = fakeStaging(studyId, gone.pid!, Date.now(), 2_500);
      const stale = fakeStaging(newStudy('Stale'), alive.pid!, Date.now() - STALE_IMPORT_MS - 1_000, 10);
      const live = fakeStaging(newStudy('Live'), alive.pid!, Date.now(), 10);
      gone.kill('SIGKILL');
      await new Promise((resolve) => gone.once('exit', resolve));
      expect(recoverAbandonedImports(getDb())).toBe(2);
      for (const id of [deadPid, stale]) {
        expect(count('SELECT count(*) FROM items WHERE import_id = ?', id)).toBe(0);
        expect(count('SELECT count(*) FROM imports WHERE id = ?', id)).toBe(0);
      }
      expect(count('SELECT count(*) FROM items WHERE import_id = ?', live)).toBe(10);
      // With the abandoned import gone, the study imports and opens as usual.
      const file = writeTemp(dir, 'after.jsonl', flowsJsonl('after', 5));
      expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ inserted: 5 });
    } finally {
      alive.kill('SIGKILL');
    }
  });
});

describe('an import killed while it writes', () => {
  it("stops and undoes itself when only the command's wrapper process is killed", async () => {
    const studyId = newStudy('Wrapper killed');
    const file = writeTemp(dir, 'orphan.jsonl', flowsJsonl('orphan', 30_000));
    const cli = spawn(process.execPath, ['lib/cli/bin.mjs', 'import', 'items', '--study', String(studyId), file], {
      env: process.env,
      stdio: 'ignore',
      detached: true,
    });
    try {
      let staged = 0;
      for (let i = 0; i < 600 && staged < 2_000; i++) {
        await new Promise((r) => setTimeout(r, 50));
        staged = count(
          "SELECT count(*) FROM items i JOIN imports m ON m.id = i.import_id WHERE m.study_id = ? AND m.state = 'staging'",
          studyId,
        );
      }
      expect(staged).toBeGreaterThanOrEqual(2_000);
      // Only bin.mjs: the tsx child that runs the import is left running, as after an OOM kill of the wrapper.
      process.kill(cli.pid!, 'SIGKILL');
      // The child notices at its next commit and removes what it wrote, with nobody starting anything.
      let imports = -1;
      for (let i = 0; i < 400 && imports !== 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        imports = count('SELECT count(*) FROM imports WHERE study_id = ?', studyId);
      }
      expect(imports).toBe(0);
      expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
    } finally {
      try {
        process.kill(-cli.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
  }, 60_000);
  it('leaves staged items that the next start removes: none of the file remains', async () => {
    const studyId = newStudy('Killed');
    const file = writeTemp(dir, 'killed.jsonl', flowsJsonl('killed', 30_000));
    // Its own process group: the CLI runs the import in a child process, and both must die.
    const cli = spawn(process.execPath, ['lib/cli/bin.mjs', 'import', 'items', '--study', String(studyId), file], {
      env: process.env,
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    // Wait until some batches are committed, then kill -9 mid-write.
    let staged = 0;
    for (let i = 0; i < 600 && staged < 2_000; i++) {
      await new Promise((r) => setTimeout(r, 50));
      staged = count(
        "SELECT count(*) FROM items i JOIN imports m ON m.id = i.import_id WHERE m.study_id = ? AND m.state = 'staging'",
        studyId,
      );
    }
    process.kill(-cli.pid!, 'SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 200)); // the group's other member goes down with it
    expect(staged).toBeGreaterThanOrEqual(2_000);
    expect(count("SELECT count(*) FROM imports WHERE study_id = ? AND state = 'done'", studyId)).toBe(0);
    expect(recoverAbandonedImports(getDb())).toBe(1);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
    expect(count('SELECT count(*) FROM imports WHERE study_id = ?', studyId)).toBe(0);
    expect(count('PRAGMA integrity_check')).toBe('ok' as unknown as number);
  }, 60_000);
});

describe('undoing a large abandoned import', () => {
  const tsx = createRequire(import.meta.url).resolve('tsx');

  /** `n` items of a study in one transaction; returns their ids. */
  function insertItems(studyId: number, prefix: string, n: number, importId: number | null): number[] {
    const insert = sql().prepare(
      "INSERT INTO items (study_id, external_id, position, payload, content_hash, import_id) VALUES (?, ?, ?, '{}', 'x', ?)",
    );
    return sql().transaction(() =>
      Array.from({ length: n }, (_, k) => Number(insert.run(studyId, `${prefix}-${k}`, k + 1, importId).lastInsertRowid)),
    )();
  }

  // A finished judge run of another study: the tables that reference items hold rows, as on a server in use.
  let judgedRun = 0;
  beforeAll(() => {
    const judged = newStudy('Judged');
    const judgedItems = insertItems(judged, 'judged', 20_000, null);
    judgedRun = Number(
      sql()
        .prepare(
          "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, 'J', 'concord', 'j.jsonl', '[]', ?)",
        )
        .run(judged, lead.id).lastInsertRowid,
    );
    const label = sql().prepare("INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, 0, 'win')");
    sql().transaction(() => {
      for (const item of judgedItems) for (const criterion of ['c1', 'c2', 'c3', 'c4', 'c5']) label.run(judgedRun, item, criterion);
    })();
  });

  /**
   * A 20,000-item import whose process was killed while it wrote, undone by `recover` while another process writes a
   * row every few milliseconds (as sign-ins and submissions do). Returns what that process saw and how many timer
   * ticks this process ran during the undo.
   */
  async function undoWhileAnotherProcessWrites(name: string, recover: () => number | Promise<number>) {
    const studyId = newStudy(name);
    const gone = sleeper();
    const importId = fakeStaging(studyId, gone.pid!, Date.now(), 0);
    insertItems(studyId, 'abandoned', 20_000, importId);
    gone.kill('SIGKILL');
    await new Promise((resolve) => gone.once('exit', resolve));

    const probe = spawn(process.execPath, ['--import', tsx, 'test/write-probe.ts'], {
      env: process.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    probe.stdout.on('data', (d) => (out += d));
    const probeDone = new Promise((resolve) => probe.once('exit', resolve));
    for (let i = 0; i < 200 && !out.startsWith('ready'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(out).toMatch(/^ready/);

    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const undone = await recover();
    clearInterval(ticker);
    probe.stdin.end();
    await probeDone;
    const probed = JSON.parse(out.trim().split('\n').pop()!) as { writes: number; maxMs: number; failures: string[] };

    expect(undone).toBe(1);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
    expect(count('SELECT count(*) FROM imports WHERE id = ?', importId)).toBe(0);
    expect(count('SELECT count(*) FROM judge_labels WHERE run_id = ?', judgedRun)).toBe(100_000); // nobody else's rows
    // The other process's writes all went in, and none waited long.
    expect(probed.failures).toEqual([]);
    expect(probed.writes).toBeGreaterThan(10);
    expect(probed.maxMs).toBeLessThan(1_000);
    return { ticks };
  }

  it("at the server's start: lets a writer of another process in between its short transactions, serves this process meanwhile, and removes every staged row", async () => {
    const { ticks } = await undoWhileAnotherProcessWrites('Undone at start', () => recoverAbandonedImportsInBackground(getDb()));
    expect(ticks).toBeGreaterThan(10); // this process's timers ran during the undo
  }, 120_000);

  it('by the command line or an orphaned import process: lets a writer of another process in between its short transactions', async () => {
    await undoWhileAnotherProcessWrites('Undone by a command', () => recoverAbandonedImports(getDb()));
  }, 120_000);
});
