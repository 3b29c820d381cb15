import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { OwnServer, cliOn, signInOverHttp, withReadonlyDb } from './support/server';

// Large uploads over HTTP against the production build, on a server and database of this spec's own (port 3211).
// The files are written to a temporary folder and streamed from disk in 64 KiB writes, as a browser sends them:
// each upload is imported whole or refused whole, and nothing of a cut-short one is kept. Last, the server alone
// is killed in the middle of an upload's import: its import process must undo what it wrote and end.
const PORT = 3211;
const PASSWORD = 'uploads-test-password';
const KiB = 1024;
const MiB = 1024 * KiB;

test.describe.configure({ mode: 'serial' });

let dir = '';
let dbFile = '';
let server: OwnServer;
let cookie = '';
const cli = (args: string[], input?: string) => cliOn(dbFile, args, input);
const createStudy = (kind: string, name: string) =>
  (JSON.parse(cli(['study', 'create', '--kind', kind, '--name', name, '--reviewers', '1', '--json'])) as { id: number }).id;

/** Writes `n` lines of exactly `bytes` bytes each (line break included) to `dir/name`, a few MiB at a time. */
function writeLines(name: string, n: number, bytes: number, line: (i: number, padding: (length: number) => string) => string) {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  const text = 'Let us look at what the question asks before we compute anything. ';
  const padding = (length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);
  try {
    let chunk: string[] = [];
    let size = 0;
    for (let i = 1; i <= n; i++) {
      const l = `${line(i, padding)}\n`;
      if (Buffer.byteLength(l) !== bytes) throw new Error(`line ${i} has ${Buffer.byteLength(l)} bytes, not ${bytes}`);
      chunk.push(l);
      size += bytes;
      if (size >= 4 * MiB) {
        fs.writeSync(fd, chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    fs.writeSync(fd, chunk.join(''));
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** A file of `n` valid flows `prefix-000001` …, each line exactly `bytes` bytes (one long tutor step). */
function flowsFile(prefix: string, n: number, bytes: number) {
  return writeLines(`${prefix}.jsonl`, n, bytes, (i, padding) => {
    const head = `{"id":"${prefix}-${String(i).padStart(6, '0')}","problem":{"text":"Problem ${i}: what is ${i} + ${i}?"},"steps":[{"speaker":"tutor","text":"`;
    const tail = '"}]}';
    return head + padding(bytes - 1 - head.length - tail.length) + tail;
  });
}

type Answer = { status: number; body: { ok?: boolean; data?: Record<string, unknown>; error?: string } | null; failure?: string };

/**
 * POSTs `file` to `pathname` with its Content-Length (or `chunked`, without one), streamed from disk in 64 KiB
 * writes (each waits for the socket to drain). With `cutAfter`, only that many bytes are sent and then the socket
 * is ended: a body cut short.
 */
function upload(
  pathname: string,
  file: string,
  options: { cutAfter?: number; chunked?: boolean; signedOut?: boolean } = {},
): Promise<Answer> {
  const size = fs.statSync(file).size;
  return new Promise<Answer>((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port: PORT,
      method: 'POST',
      path: pathname,
      headers: {
        'content-type': 'application/x-ndjson',
        ...(options.chunked ? {} : { 'content-length': size }),
        ...(options.signedOut ? {} : { cookie }),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: Answer['body'] = null;
        try {
          body = JSON.parse(text) as Answer['body'];
        } catch {
          // not JSON: the status says enough
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', (e) => resolve({ status: res.statusCode ?? 0, body: null, failure: e.message }));
    });
    req.on('error', (e) => resolve({ status: 0, body: null, failure: e.message }));
    void (async () => {
      const stream = fs.createReadStream(file, {
        highWaterMark: 64 * KiB,
        ...(options.cutAfter !== undefined ? { end: options.cutAfter - 1 } : {}),
      });
      for await (const chunk of stream) {
        if (req.destroyed) break;
        if (!req.write(chunk)) await drained(req);
      }
      if (options.cutAfter === undefined) req.end();
      else req.socket?.end();
    })();
  });
}

/** Resolves when the request can take more, or is gone. */
function drained(req: http.ClientRequest) {
  return new Promise<void>((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

/** Pids of the import processes the server started for uploads into this spec's folder. */
function importChildren(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/import-child\.(mjs|ts)\0/.test(cmd) && cmd.includes(dir) && !exited(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function statOf(pid: number): { state: string; ppid: number; group: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid), group: Number(group) };
  } catch {
    return null;
  }
}

/** Gone, or a zombie nobody has reaped yet. */
const exited = (pid: number) => {
  const s = statOf(pid);
  return s === null || s.state === 'Z' || s.state === 'X';
};

function counts(studyId: number, prefix: string) {
  return withReadonlyDb(dbFile, (sql) => ({
    items: sql
      .prepare("SELECT count(*) FROM items WHERE study_id = ? AND external_id LIKE ? || '-%'")
      .pluck()
      .get(studyId, prefix) as number,
    done: sql.prepare("SELECT count(*) FROM imports WHERE study_id = ? AND state = 'done'").pluck().get(studyId) as number,
    imports: sql.prepare('SELECT count(*) FROM imports WHERE study_id = ?').pluck().get(studyId) as number,
  }));
}

const uploadsLeft = () => {
  const folder = path.join(dir, 'uploads');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

async function until(what: string, check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-uploads-'));
  dbFile = path.join(dir, 'concord.db');
  server = new OwnServer(dbFile, PORT);
  cli(['user', 'add', 'up-lead', '--role', 'lead'], `${PASSWORD}\n`);
  await server.start();
  const ctx = await signInOverHttp(server.baseURL, 'up-lead', PASSWORD);
  cookie = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  await ctx.dispose();
});

test.afterAll(async () => {
  await server?.kill9();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a signed-out upload gets a 401 JSON answer and nothing is stored', async () => {
  const studyId = createStudy('flow_review', 'Signed out');
  const file = flowsFile('anon', 100, 1 * KiB);
  const answer = await upload(`/api/studies/${studyId}/import?format=concord&filename=anon.jsonl`, file, { signedOut: true });
  expect(answer.status).toBe(401);
  expect(answer.body).toMatchObject({ ok: false, error: expect.any(String) });
  expect(counts(studyId, 'anon')).toEqual({ items: 0, done: 0, imports: 0 });
  expect(uploadsLeft()).toEqual([]);
});

test('a 20 MiB upload of 20,480 flows is imported whole, by the import process', async () => {
  test.setTimeout(90_000);
  const studyId = createStudy('flow_review', 'Twenty MiB');
  const file = flowsFile('m20', 20_480, 1 * KiB);
  expect(fs.statSync(file).size).toBe(20 * MiB);
  // Watch for the import process while the upload runs: above 4 MB the server does not import in its own process.
  let sawChild = false;
  const watch = setInterval(() => (sawChild ||= importChildren().length > 0), 50);
  const answer = await upload(`/api/studies/${studyId}/import?format=concord&filename=m20.jsonl`, file).finally(() => clearInterval(watch));
  expect(answer.body).toEqual({ ok: true, data: { records: 20_480, inserted: 20_480, unchanged: 0 } });
  expect(answer.status).toBe(200);
  expect(sawChild).toBe(true);
  expect(counts(studyId, 'm20')).toEqual({ items: 20_480, done: 1, imports: 1 });
  expect(uploadsLeft()).toEqual([]);
});

test('a 200 MB upload is imported whole', async () => {
  test.setTimeout(120_000);
  const studyId = createStudy('flow_review', 'Two hundred MB');
  // Fewer, long flows: the point is the bytes.
  const file = flowsFile('m200', 2_000, 100_000);
  expect(fs.statSync(file).size).toBe(200_000_000);
  const answer = await upload(`/api/studies/${studyId}/import?format=concord&filename=m200.jsonl`, file);
  expect(answer.body).toEqual({ ok: true, data: { records: 2_000, inserted: 2_000, unchanged: 0 } });
  expect(counts(studyId, 'm200')).toEqual({ items: 2_000, done: 1, imports: 1 });
  fs.rmSync(file);
  expect(uploadsLeft()).toEqual([]);
});

test('an upload cut short is refused and nothing of it is stored', async () => {
  const studyId = createStudy('flow_review', 'Cut short');
  const file = flowsFile('cut', 12_288, 1 * KiB); // 12 MiB
  for (const chunked of [false, true]) {
    // Cut at a line break: what arrived is a valid file of 6,144 flows.
    const answer = await upload(`/api/studies/${studyId}/import?format=concord&filename=cut.jsonl`, file, { cutAfter: 6 * MiB, chunked });
    // The socket is half gone: the client sees a refusal or no answer at all, never a success.
    expect(answer.status).not.toBe(200);
    expect(answer.body?.ok).not.toBe(true);
    // The server let go of the partial upload without importing any of it.
    await until('the partial upload to be removed', () => uploadsLeft().length === 0, 10_000);
    expect(counts(studyId, 'cut')).toEqual({ items: 0, done: 0, imports: 0 });
  }
  // The same file sent whole afterwards is imported whole: nothing was left half-written or locked.
  const again = await upload(`/api/studies/${studyId}/import?format=concord&filename=cut.jsonl`, file);
  expect(again.body).toEqual({ ok: true, data: { records: 12_288, inserted: 12_288, unchanged: 0 } });
});

test('a judge run of more than 10 MiB arrives whole', async () => {
  test.setTimeout(90_000);
  const studyId = createStudy('pairwise', 'Judge upload');
  const base = JSON.parse(
    fs.readFileSync(path.join('lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl'), 'utf8').split('\n')[0],
  ) as object;
  const items = path.join(dir, 'pairs.jsonl');
  fs.writeFileSync(items, Array.from({ length: 200 }, (_, i) => JSON.stringify({ ...base, id: `pair-${i + 1}` })).join('\n'));
  cli(['import', 'items', '--study', String(studyId), items]);
  // 200 verdicts with long rationales: 12.8 MB.
  let rationaleChars = 0;
  const verdicts = writeLines('judge.jsonl', 200, 64_000, (i, padding) => {
    const head = `{"item":"pair-${i}","judge":"long-judge","labels":{"overall":"${['win', 'tie', 'lose'][i % 3]}"},"swapped":false,"rationale":"`;
    const tail = '"}';
    const rationale = padding(64_000 - 1 - head.length - tail.length);
    rationaleChars += rationale.length;
    return head + rationale + tail;
  });
  expect(fs.statSync(verdicts).size).toBeGreaterThan(10 * MiB);
  const answer = await upload(`/api/studies/${studyId}/judge?format=concord&filename=judge.jsonl`, verdicts);
  expect(answer.body).toMatchObject({ ok: true, data: { run: 'long-judge', records: 200, labels: 200, unparsed: [] } });
  const stored = withReadonlyDb(dbFile, (sql) =>
    sql
      .prepare(
        'SELECT count(*) AS labels, sum(length(l.rationale)) AS chars FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id WHERE r.study_id = ?',
      )
      .get(studyId),
  );
  expect(stored).toEqual({ labels: 200, chars: rationaleChars });
});

test('when the server alone is killed mid-import, its import process undoes what it wrote and ends', async () => {
  test.setTimeout(120_000);
  const studyId = createStudy('flow_review', 'Orphaned import');
  const file = flowsFile('orphan', 61_440, 1 * KiB); // 60 MiB: long enough to be caught in the middle
  const answer = upload(`/api/studies/${studyId}/import?format=concord&filename=orphan.jsonl`, file);
  // Wait until the import process has committed some batches.
  await until(
    'batches of the import to be committed',
    () =>
      withReadonlyDb(dbFile, (sql) => sql.prepare('SELECT count(*) FROM items WHERE study_id = ?').pluck().get(studyId) as number) >= 2_000,
    90_000,
  );
  const children = importChildren();
  expect(children).toHaveLength(1);
  const child = children[0];
  const serverPid = statOf(child)!.ppid;
  expect(statOf(serverPid)?.group).toBe(server.proc!.child.pid); // one of the server's own processes
  // Only the process that started the import (as an OOM kill would): not its process group, not the import.
  process.kill(serverPid, 'SIGKILL');
  expect((await answer).status).toBe(0);
  await until('the import process to end', () => exited(child), 30_000);
  expect(counts(studyId, 'orphan')).toEqual({ items: 0, done: 0, imports: 0 });
});
