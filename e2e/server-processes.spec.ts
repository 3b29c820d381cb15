import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getQueue, newRequestId, postSubmission } from './support/load';
import { OwnServer, cliOn, pool, signInOverHttp, withReadonlyDb, writeFlowsFile } from './support/server';

// The server as `npm start` runs it with CONCORD_PROCESSES=2 (lib/cli/serve.mjs, decision 0049), on a port of this
// spec's own: both processes answer on one port; what one server must do once (clear a killed server's leftovers,
// keep the backup timer) is done once; a process killed with -9 is started again without touching another's files;
// SIGTERM to the launcher stops them all and leaves the database checkpointed.
const PORT = 3526;
const PASSWORD = 'processes-test-password';
const ANNOTATORS = ['sp-a1', 'sp-a2', 'sp-a3', 'sp-a4'];

test.describe.configure({ mode: 'serial' });

let dir = '';
let db = '';
let server: OwnServer;
let study = 0;

/** The server processes (`next-server`) in the launcher's process group. */
function serverPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(server.proc!.child.pid)], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m && m[2].startsWith('next-server'))
    .map((m) => Number(m[1]));
}

/** How many established connections to PORT each process holds, from /proc (the socket inodes of each). */
function connectionsOf(pids: number[]): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (parseInt(f[1].split(':').at(-1)!, 16) === PORT && f[3] === '01') inodes.add(f[9]);
    }
  }
  return pids.map((pid) => {
    let n = 0;
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }));
      if (m && inodes.has(m[1])) n++;
    }
    return n;
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-processes-'));
  db = path.join(dir, 'data', 'concord.db');
  cliOn(db, ['user', 'add', 'sp-admin', '--role', 'admin'], `${PASSWORD}\n`);
  await pool(ANNOTATORS, 2, async (u) => cliOn(db, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`));
  study = (
    JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', 'Two processes', '--reviewers', '1', '--json'])) as {
      id: number;
    }
  ).id;
  cliOn(db, ['import', 'items', '--study', String(study), writeFlowsFile(dir, 'sp', 400)]);
  cliOn(db, ['study', 'members', String(study), ...ANNOTATORS]);
  cliOn(db, ['study', 'open', String(study)]);
  // What a server killed mid-upload and mid-backup leaves behind.
  fs.mkdirSync(path.join(dir, 'data', 'uploads'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', 'uploads', 'left-by-a-killed-server.part'), 'half an upload');
  fs.mkdirSync(path.join(dir, 'data', 'backups'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', 'backups', 'concord-20260101T000000000Z.db.partial'), 'half a backup');
  server = new OwnServer(db, PORT, { CONCORD_PROCESSES: '2', CONCORD_BACKUP_EVERY: '3s', CONCORD_BACKUP_KEEP: '3' });
  await server.start(120_000);
  await expect.poll(() => serverPids().length, { timeout: 60_000 }).toBe(2);
});

test.afterAll(async () => {
  await server?.kill9();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('two processes answer on one port; every submission sent to either is stored once', async () => {
  expect(fs.existsSync(path.join(dir, 'data', 'uploads', 'left-by-a-killed-server.part'))).toBe(false);
  expect(fs.readdirSync(path.join(dir, 'data', 'backups')).filter((f) => f.endsWith('.partial'))).toEqual([]);

  const contexts = await pool(ANNOTATORS, 4, (u) => signInOverHttp(server.baseURL, u, PASSWORD));
  // Each context keeps its connections; the launcher hands new connections to the processes in turn.
  await Promise.all(contexts.map((ctx) => getQueue(ctx, study)));
  const held = connectionsOf(serverPids());
  expect(
    held.every((n) => n > 0),
    `connections per process: ${held.join(', ')}`,
  ).toBe(true);

  const acked: { username: string; id: number; requestId: string }[] = [];
  await Promise.all(
    contexts.map(async (ctx, i) => {
      for (let k = 0; k < 15; k++) {
        const id = (await getQueue(ctx, study)).body!.currentId!;
        const requestId = newRequestId(ANNOTATORS[i]);
        const r = await postSubmission(ctx, id, requestId);
        expect(r.status).toBe(200);
        acked.push({ username: ANNOTATORS[i], id, requestId });
        // The same request again, as a retry after a lost answer: answered, not stored twice.
        if (k % 5 === 0) expect((await postSubmission(ctx, id, requestId)).status).toBe(200);
      }
    }),
  );
  await Promise.all(contexts.map((c) => c.dispose()));
  withReadonlyDb(db, (d) => {
    const has = d.prepare(
      'SELECT count(*) FROM annotations an JOIN users u ON u.id = an.created_by WHERE u.username = ? AND an.assignment_id = ? AND an.request_id = ?',
    );
    expect(acked.filter((a) => has.pluck().get(a.username, a.id, a.requestId) !== 1)).toEqual([]);
    expect(d.prepare('SELECT count(*) FROM annotations').pluck().get()).toBe(acked.length);
  });
});

test('one backup timer for the server; every process reports the backups it writes', async () => {
  expect(server.proc!.output.match(/a verified backup every 3s/g)).toHaveLength(1);
  const admin = await signInOverHttp(server.baseURL, 'sp-admin', PASSWORD);
  const cookie = (await admin.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  await admin.dispose();
  // Fresh connections (plain fetch, no keep-alive) go to both processes in turn.
  const read = async () => {
    const r = await fetch(`${server.baseURL}/api/health`, { headers: { cookie, connection: 'close' } });
    return ((await r.json()) as { backup: { state: string; newestAt: string | null } }).backup;
  };
  await expect.poll(async () => (await read()).state, { timeout: 30_000 }).toBe('ok');
  // The other process learns of it from the folder within a second.
  await expect
    .poll(async () => (await Promise.all(Array.from({ length: 6 }, read))).map((b) => b.state), { timeout: 10_000 })
    .toEqual(Array(6).fill('ok'));
  const backups = fs.readdirSync(path.join(dir, 'data', 'backups')).filter((f) => /^concord-.*\.db$/.test(f));
  expect(backups.length).toBeGreaterThan(0);
  expect(backups.length).toBeLessThanOrEqual(3);
});

test('a process killed with -9 is started again and leaves the other one’s files alone', async () => {
  const before = serverPids();
  // An upload another process is receiving at that moment: a process started again must not clear it.
  const receiving = path.join(dir, 'data', 'uploads', 'being-received.part');
  fs.mkdirSync(path.dirname(receiving), { recursive: true });
  fs.writeFileSync(receiving, 'an upload under way');
  process.kill(before[1], 'SIGKILL');
  await expect
    .poll(
      () => {
        const now = serverPids();
        return now.length === 2 && !now.includes(before[1]);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  await expect.poll(async () => (await fetch(`${server.baseURL}/api/health`, { headers: { connection: 'close' } })).status).toBe(200);
  expect(fs.existsSync(receiving)).toBe(true);
  expect(server.proc!.output).toContain('starting server process 1 again');

  const ctx = await signInOverHttp(server.baseURL, ANNOTATORS[0], PASSWORD);
  const id = (await getQueue(ctx, study)).body!.currentId!;
  expect((await postSubmission(ctx, id, newRequestId('after-restart'))).status).toBe(200);
  await ctx.dispose();
});

test('SIGTERM to the launcher stops every process and leaves the database checkpointed', async () => {
  const pids = serverPids();
  await server.stop(30_000);
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  expect(fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0).toBe(0);
});

test('a server whose first process cannot open the database stops with an error instead of starting it again and again', async () => {
  // A folder where the database file should be: the first process refuses to start, as one process would.
  const broken = new OwnServer(path.join(dir, 'data'), PORT + 1, { CONCORD_PROCESSES: '2' });
  const started = Date.now();
  await expect(broken.start(60_000)).rejects.toThrow(/the server exited during start-up[\s\S]*stopping the server/);
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(broken.proc!.output).not.toContain('starting server process 0 again');
});
