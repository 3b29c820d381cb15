import { expect, request, test, type APIRequestContext } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postSubmission, submitUntilConnectionDrops, type CrashLoadResult } from './support/load';
import {
  OwnServer,
  cliOn,
  cliOnAsync,
  flowsJsonl,
  integrityCheck,
  killableCli,
  seededRandom,
  signInOverHttp,
  withReadonlyDb,
  writeFlowsFile,
} from './support/server';

// kill -9 in the middle of imports (the CLI, and the server during an upload) and of submit load, on a server and
// database of this spec's own (port 3198), never the shared one. After each kill: the file is intact, an import
// is all or nothing, and every submission a client saw acknowledged is there, exactly once.
const PORT = 3198;
const ROUNDS = 20;
const FILE_FLOWS = 3000;
const SUBMIT_ITEMS = 2400;
const PASSWORD = 'crash-test-password';
const SEED = Number(process.env.CONCORD_CRASH_SEED ?? Math.floor(Math.random() * 1e9));
const random = seededRandom(SEED);
const KINDS = ['CLI import', 'server upload', 'submit load'] as const;
const annotators = ['crash-a1', 'crash-a2', 'crash-a3', 'crash-a4'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.describe.configure({ mode: 'serial' });

let dir = '';
let dbFile = '';
let server: OwnServer;
let importStudy = 0;
let submitStudy = 0;
let cliImportMs = 0;
let uploadMs = 0;
let lead: APIRequestContext;
let workers: APIRequestContext[] = [];
/** per annotator: submissions the server must have, acknowledged or resolved after a crash */
const expectedSubmitted = new Map(annotators.map((u) => [u, 0]));
const outcomes: string[] = [];

/** Set-up and checks: one `concord batch` process for the spec's database. */
const cli = (args: string[], input?: string) => cliOn(dbFile, args, input);
const createStudy = (name: string) =>
  (JSON.parse(cli(['study', 'create', '--kind', 'flow_review', '--name', name, '--reviewers', '1', '--json'])) as { id: number }).id;

/** New request contexts with the same session cookies: sockets kept alive to a killed server are not reused. */
async function renewContexts() {
  const renew = async (ctx: APIRequestContext) => {
    const storageState = await ctx.storageState();
    await ctx.dispose();
    return request.newContext({ baseURL: server.baseURL, storageState });
  };
  lead = await renew(lead);
  workers = await Promise.all(workers.map(renew));
}

/** Starts the server again; the sessions signed before the crash still work (the queue answers each annotator). */
async function restart() {
  const t0 = Date.now();
  await server.start();
  await renewContexts();
  const ms = Date.now() - t0;
  for (const w of workers) expect((await w.get(`/api/studies/${submitStudy}/queue`)).status()).toBe(200);
  return ms;
}

/** Uploads the server is holding: they wait in `uploads/` beside its database. */
const uploadsLeft = () => {
  const dir = path.join(path.dirname(dbFile), 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

function importedCount(prefix: string): { items: number; importRows: number; integrity: string } {
  return withReadonlyDb(dbFile, (sql) => ({
    integrity: integrityCheck(sql),
    items: sql
      .prepare("SELECT count(*) FROM items WHERE study_id = ? AND external_id LIKE ? || '-%'")
      .pluck()
      .get(importStudy, prefix) as number,
    importRows: sql
      .prepare('SELECT count(*) FROM imports WHERE study_id = ? AND filename = ?')
      .pluck()
      .get(importStudy, `${prefix}.jsonl`) as number,
  }));
}

/** Imports into the import study still being written or undone. */
const stagingImports = () =>
  withReadonlyDb(dbFile, (sql) =>
    sql.prepare("SELECT count(*) FROM imports WHERE study_id = ? AND state = 'staging'").pluck().get(importStudy),
  );

/** The import of `prefix` is all or nothing, and recorded (once, unless sent again) if it happened. */
function expectAllOrNothing(prefix: string, acknowledged: boolean, imports?: number) {
  const c = importedCount(prefix);
  expect(c.integrity).toBe('ok');
  expect([0, FILE_FLOWS]).toContain(c.items);
  expect(c.importRows).toBe(imports ?? (c.items ? 1 : 0));
  if (acknowledged) expect(c.items).toBe(FILE_FLOWS);
  return c.items ? 'all' : 'none';
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  console.log(`crash seed ${SEED} (rerun with CONCORD_CRASH_SEED=${SEED})`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-crash-'));
  dbFile = path.join(dir, 'concord.db');
  server = new OwnServer(dbFile, PORT);
  cli(['user', 'add', 'crash-lead', '--role', 'lead'], `${PASSWORD}\n`);
  for (const u of annotators) cli(['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  submitStudy = createStudy('Crash: submit load');
  importStudy = createStudy('Crash: imports');
  cli(['import', 'items', '--study', String(submitStudy), writeFlowsFile(dir, 'sub', SUBMIT_ITEMS)]);
  cli(['study', 'members', String(submitStudy), ...annotators]);
  cli(['study', 'open', String(submitStudy)]);

  // How long an unhurried import takes, so kills can be spread over the whole of one: a process of its own, as the
  // killed imports are (start-up included).
  let t0 = Date.now();
  await cliOnAsync(dbFile, ['import', 'items', '--study', String(importStudy), writeFlowsFile(dir, 'cal-cli', FILE_FLOWS)]);
  cliImportMs = Date.now() - t0;
  expectAllOrNothing('cal-cli', true);

  await server.start();
  lead = await signInOverHttp(server.baseURL, 'crash-lead', PASSWORD);
  workers = await Promise.all(annotators.map((u) => signInOverHttp(server.baseURL, u, PASSWORD)));
  t0 = Date.now();
  const res = await lead.post(`/api/studies/${importStudy}/import?format=concord&filename=cal-http.jsonl`, {
    data: Buffer.from(flowsJsonl('cal-http', FILE_FLOWS)),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  uploadMs = Date.now() - t0;
  expect(res.status()).toBe(200);
  expectAllOrNothing('cal-http', true);
  console.log(`calibration: CLI import of ${FILE_FLOWS} flows ${cliImportMs} ms (with start-up), upload ${uploadMs} ms`);
});

test.afterAll(async () => {
  await lead?.dispose();
  await Promise.all(workers.map((w) => w.dispose()));
  await server?.kill9();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  console.log(outcomes.join('\n'));
});

async function cliImportRound(round: number) {
  const prefix = `r${round}`;
  const file = writeFlowsFile(dir, prefix, FILE_FLOWS);
  // Spread over start-up, validation, the write transaction and just after it.
  const delay = Math.round(cliImportMs * (0.15 + 1.35 * random()));
  const proc = killableCli(dbFile, ['import', 'items', '--study', String(importStudy), '--format', 'concord', file]);
  await sleep(delay);
  const wasRunning = proc.running;
  await proc.kill9();
  const { code } = await proc.exited;
  fs.rmSync(file);
  // Batches a killed import had committed are undone by the next start of the CLI or the server (here: a report, in
  // a process of its own, as the operator's next command would be).
  const staged = importedCount(prefix).items;
  await cliOnAsync(dbFile, ['report', 'flows', '--study', String(importStudy), '--json']);
  const result = expectAllOrNothing(prefix, code === 0);
  // The server, which had the file open throughout, still answers and can write.
  expect((await fetch(`${server.baseURL}/api/health`)).status).toBe(200);
  const undone = result === 'none' && staged ? ` (${staged} items of committed batches undone at the next start)` : '';
  return `CLI killed at ${delay} ms${wasRunning ? '' : ' (had already exited ' + code + ')'} → ${result}${undone}`;
}

async function uploadRound(round: number) {
  const prefix = `r${round}`;
  const delay = Math.round(uploadMs * (0.05 + 1.75 * random()));
  const upload = lead
    .post(`/api/studies/${importStudy}/import?format=concord&filename=${prefix}.jsonl`, {
      data: Buffer.from(flowsJsonl(prefix, FILE_FLOWS)),
      headers: { 'content-type': 'application/x-ndjson' },
    })
    .then(async (res) => ({ status: res.status(), ok: ((await res.json().catch(() => null)) as { ok?: boolean } | null)?.ok === true }))
    .catch(() => ({ status: 0, ok: false }));
  await sleep(delay);
  await server.kill9();
  const answer = await upload;
  const restartMs = await restart();
  // The restarted server answers at once and undoes a killed import in the background: wait for that to finish.
  await expect.poll(stagingImports, { timeout: 30_000 }).toBe(0);
  const result = expectAllOrNothing(prefix, answer.status === 200 && answer.ok);
  // A killed server cannot remove the upload it was reading; the restarted one clears what was left.
  expect(uploadsLeft()).toEqual([]);
  // Sending the file again after the restart imports it (or finds it already there): nothing was left locked or half-done.
  const retry = await lead.post(`/api/studies/${importStudy}/import?format=concord&filename=${prefix}.jsonl`, {
    data: Buffer.from(flowsJsonl(prefix, FILE_FLOWS)),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  expect(retry.status()).toBe(200);
  expect(((await retry.json()) as { data: { inserted: number; unchanged: number } }).data).toMatchObject(
    result === 'all' ? { inserted: 0, unchanged: FILE_FLOWS } : { inserted: FILE_FLOWS, unchanged: 0 },
  );
  expectAllOrNothing(prefix, true, result === 'all' ? 2 : 1);
  return (
    `server killed ${delay} ms into the upload (client saw ${answer.status || 'no answer'}) → ${result}; restart ${restartMs} ms; ` +
    'sent again → all; no upload left behind'
  );
}

async function submitRound() {
  const delay = Math.round(300 + 2000 * random());
  const load = Promise.all(workers.map((ctx, i) => submitUntilConnectionDrops(ctx, annotators[i], submitStudy)));
  await sleep(delay);
  await server.kill9();
  const results: CrashLoadResult[] = await load;
  const restartMs = await restart();
  expect(results.flatMap((r) => r.failures)).toEqual([]);

  const acked = results.flatMap((r) =>
    [...r.acked].map(([assignmentId, requestId]) => ({ username: r.username, assignmentId, requestId })),
  );
  const inFlight = results.flatMap((r, i) => r.inFlight.map((f) => ({ ...f, username: r.username, ctx: i })));
  const stored = (requestId: string) =>
    withReadonlyDb(dbFile, (sql) =>
      sql.prepare('SELECT assignment_id AS assignmentId FROM annotations WHERE request_id = ?').all(requestId),
    ) as { assignmentId: number }[];
  withReadonlyDb(dbFile, (sql) => expect(integrityCheck(sql)).toBe('ok'));
  // Acknowledged before the kill: stored, once, on its assignment.
  expect(acked.filter((a) => JSON.stringify(stored(a.requestId)) !== JSON.stringify([{ assignmentId: a.assignmentId }]))).toEqual([]);
  // Sent but unanswered: the client sends it again with the same request id, as the review screen does; it is
  // then stored exactly once, whether or not the first attempt had committed.
  let committedBeforeKill = 0;
  for (const f of inFlight) {
    const again = await postSubmission(workers[f.ctx], f.assignmentId, f.requestId);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    if (again.body?.data?.duplicate) committedBeforeKill++;
    expect(stored(f.requestId)).toEqual([{ assignmentId: f.assignmentId }]);
  }
  for (const r of results) expectedSubmitted.set(r.username, expectedSubmitted.get(r.username)! + r.acked.size + r.inFlight.length);

  withReadonlyDb(dbFile, (sql) => {
    const inStudy = 'FROM annotations an JOIN assignments a ON a.id = an.assignment_id WHERE a.study_id = ?';
    expect(
      sql.prepare(`SELECT an.assignment_id, count(*) AS n ${inStudy} GROUP BY an.assignment_id HAVING n > 1`).all(submitStudy),
    ).toEqual([]);
    const counts = sql
      .prepare(
        `SELECT (SELECT count(*) ${inStudy}) AS annotations,
                (SELECT count(*) FROM assignments WHERE study_id = ? AND state = 'submitted') AS submitted`,
      )
      .get(submitStudy, submitStudy) as { annotations: number; submitted: number };
    expect(counts.annotations).toBe(counts.submitted);
  });
  // What each annotator's queue says agrees with everything acknowledged so far.
  const queues = await Promise.all(
    workers.map(async (w) => (await w.get(`/api/studies/${submitStudy}/queue`)).json() as Promise<{ submitted: number }>),
  );
  expect(queues.map((q) => q.submitted)).toEqual(annotators.map((u) => expectedSubmitted.get(u)));
  return `server killed ${delay} ms into submit load: ${acked.length} acknowledged, all stored once; ${inFlight.length} in flight (${committedBeforeKill} had committed), resent, stored once; restart ${restartMs} ms`;
}

for (let round = 1; round <= ROUNDS; round++) {
  const kind = KINDS[(round - 1) % KINDS.length];
  test(`crash round ${round}: kill -9 during ${kind}`, async () => {
    test.setTimeout(60_000);
    const outcome =
      kind === 'CLI import' ? await cliImportRound(round) : kind === 'server upload' ? await uploadRound(round) : await submitRound();
    outcomes.push(`round ${String(round).padStart(2)}: ${outcome}`);
  });
}
