import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getQueue, newRequestId, postSubmission } from './support/load';
import { OwnServer, cliOn, cliProcessOn, pool, signInOverHttp, withReadonlyDb, writeFlowsFile } from './support/server';

// Scheduled backups on a server of this spec's own (port 3522) while annotators submit: what /api/health shows to
// the signed-out and to an admin, the admin page, and the newest backup restored with `concord restore` into a
// fresh folder holding every submission acknowledged before it was taken.
const PORT = 3522;
const PASSWORD = 'backup-test-password';
const ANNOTATORS = ['bk-a1', 'bk-a2', 'bk-a3', 'bk-a4'];

test.describe.configure({ mode: 'serial' });

let dir = '';
let db = '';
let server: OwnServer;
let study = 0;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-backup-'));
  db = path.join(dir, 'data', 'concord.db');
  cliOn(db, ['user', 'add', 'bk-admin', '--role', 'admin'], `${PASSWORD}\n`);
  for (const u of ANNOTATORS) cliOn(db, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  study = (
    JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', 'Backed up', '--reviewers', '1', '--json'])) as {
      id: number;
    }
  ).id;
  cliOn(db, ['import', 'items', '--study', String(study), writeFlowsFile(dir, 'bk', 4000)]);
  cliOn(db, ['study', 'members', String(study), ...ANNOTATORS]);
  cliOn(db, ['study', 'open', String(study)]);
  server = new OwnServer(db, PORT, { CONCORD_BACKUP_EVERY: '4s', CONCORD_BACKUP_KEEP: '2' });
  await server.start(120_000);
});

test.afterAll(async () => {
  await server?.kill9();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('backups taken while people submit hold every acknowledged submission; health shows the newest, its file to admins only', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const backupDir = path.join(dir, 'data', 'backups');
  const contexts = await pool(ANNOTATORS, 2, (u) => signInOverHttp(server.baseURL, u, PASSWORD));
  const acked: { username: string; id: number; requestId: string; at: number }[] = [];
  const failures: string[] = [];
  let stop = false;
  const workers = contexts.map(async (ctx, i) => {
    while (!stop) {
      const q = await getQueue(ctx, study);
      const id = q.body?.currentId;
      if (!id) return failures.push(`queue ${q.status}`);
      const requestId = newRequestId(ANNOTATORS[i]);
      const r = await postSubmission(ctx, id, requestId);
      if (r.status !== 200 || !r.body?.ok) failures.push(`submit ${r.status} ${JSON.stringify(r.body)}`);
      else acked.push({ username: ANNOTATORS[i], id, requestId, at: Date.now() });
    }
  });

  // Submissions go on until the server names as its newest good backup one taken after the first acknowledgement
  // (its time, not the time the workers started: a backup begun before any submission was answered holds none of
  // them, and the test could otherwise end before the next one).
  const admin = await signInOverHttp(server.baseURL, 'bk-admin', PASSWORD);
  await expect.poll(() => acked.length, { timeout: 60_000 }).toBeGreaterThan(0);
  const firstAck = acked[0].at;
  const newestAt = async () => {
    const { backup } = (await (await admin.get('/api/health')).json()) as { backup?: { newestAt: string | null } };
    return backup?.newestAt ? Date.parse(backup.newestAt) : 0;
  };
  await expect.poll(newestAt, { timeout: 60_000 }).toBeGreaterThan(firstAck);
  const taken = () => (fs.existsSync(backupDir) ? fs.readdirSync(backupDir).filter((f) => /^concord-\d{8}T\d{9}Z\.db$/.test(f)) : []);
  const stamp = (t: number) => `concord-${new Date(t).toISOString().replace(/[-:.]/g, '')}`;
  // …and the submissions go on past that backup: stop once more have been acknowledged after the newest one taken.
  await expect
    .poll(
      () => {
        const newest = taken().sort().at(-1)!;
        return acked.filter((a) => stamp(a.at) > newest.replace(/\.db$/, '')).length;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(5);
  stop = true;
  await Promise.all(workers);
  expect(failures).toEqual([]);
  expect(acked.length).toBeGreaterThan(20);

  // /api/health, signed out: only that the server answers, nothing about backups (issue 26).
  const open = await (await fetch(`${server.baseURL}/api/health`)).json();
  expect(open).toEqual({ ok: true });
  // An annotator sees the state and time, no file name, size or folder; an admin also the file's name and size (never its folder).
  const annotatorHealth = await (await contexts[0].get('/api/health')).json();
  expect(annotatorHealth.backup).toEqual({ scheduled: true, state: 'ok', newestAt: expect.any(String), ageSeconds: expect.any(Number) });
  expect(JSON.stringify(annotatorHealth)).not.toContain(dir);
  const adminHealth = await (await admin.get('/api/health')).json();
  const newest = adminHealth.backup.name as string;
  // A copy out of the folder at once: the schedule goes on and deletes all but the newest two.
  const kept = path.join(dir, 'kept.db');
  fs.copyFileSync(path.join(backupDir, newest), kept);
  expect(adminHealth.backup).toMatchObject({ state: 'ok', bytes: fs.statSync(kept).size });
  expect(JSON.stringify(adminHealth)).not.toContain(dir);
  expect(taken().length).toBeLessThanOrEqual(2); // CONCORD_BACKUP_KEEP

  // The admin page names the newest good backup.
  const context = await browser.newContext({ baseURL: server.baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  await page.goto('/admin/users');
  await expect(page.getByTestId('backup-status')).toContainText('A verified backup every 4s');
  await expect(page.getByTestId('newest-backup')).toContainText('Newest good backup');
  await context.close();

  // Restore the newest backup into a fresh folder: every submission acknowledged before it was taken is there, once.
  const takenAt = Date.parse(adminHealth.backup.newestAt);
  const before = acked.filter((a) => a.at < takenAt);
  expect(before.length).toBeGreaterThan(0);
  const fresh = path.join(fs.mkdtempSync(path.join(dir, 'fresh-')), 'concord.db');
  // As an operator runs it: `concord restore` in a process of its own beside the running server.
  expect(cliProcessOn(db, ['restore', kept, '--to', fresh])).toContain('Restored');
  const missing = withReadonlyDb(fresh, (sql) => {
    const has = sql.prepare(
      'SELECT count(*) FROM annotations an JOIN users u ON u.id = an.created_by WHERE u.username = ? AND an.assignment_id = ? AND an.request_id = ?',
    );
    return before.filter((a) => has.pluck().get(a.username, a.id, a.requestId) !== 1);
  });
  expect(missing).toEqual([]);
  await Promise.all([...contexts, admin].map((c) => c.dispose()));
});
