import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test, request as playwrightRequest, type APIRequestContext, type APIResponse } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OwnServer, cliOn, withReadonlyDb } from './support/server';

/*
 * The data endpoints of the HTTP API over real HTTP against the production build, on a server and database of this
 * spec's own (port 3941, so that the server's memory can be watched during a large upload): imports streamed as the
 * body (items, prior annotations, judge runs), ground truth and reports, and an annotator's next item and
 * submission. Every JSON answer is checked against the OpenAPI document the server serves.
 */
const PORT = 3941;
const PASSWORD = 'api-data-spec-password';
const KiB = 1024;
const MiB = 1024 * KiB;
const LEAD = 'data-lead';
const ANN = 'data-ann';
const OTHER = 'data-other';
// Strings of the imported data that an annotator must never be sent.
const SECRET = /ZQXSRC|ZQXJUDGE/;

let dir = '';
let dbFile = '';
let server: OwnServer;
let api: APIRequestContext;
let doc: {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const cli = (args: string[], input?: string) => cliOn(dbFile, args, input);
const tokenOf = (username: string, name: string) =>
  (JSON.parse(cli(['token', 'create', '--user', username, '--name', name, '--json'])) as { token: string }).token;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sql = <T>(query: string, ...args: unknown[]) =>
  withReadonlyDb(
    dbFile,
    (db) =>
      db
        .prepare(query)
        .pluck()
        .get(...args) as T,
  );

/** Checks a JSON answer against what the document says this operation sends with this status; returns the body. */
async function documented(res: APIResponse, method: string, template: string): Promise<unknown> {
  const status = String(res.status());
  const declared = doc.paths[template]?.[method.toLowerCase()]?.responses[status] as
    { $ref?: string; content?: Record<string, { schema: unknown }> } | undefined;
  expect(declared, `${method} ${template} documents status ${status}`).toBeTruthy();
  const body = await res.json();
  const schema = declared!.$ref ? doc.components.schemas.Problem : declared!.content!['application/json'].schema;
  expect(res.headers()['content-type']).toContain(declared!.$ref ? 'application/problem+json' : 'application/json');
  const validate = ajv.compile(schema as object);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function pairwiseItems(prefix: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    problem: `What is ${i + 2} × 3?`,
    principles: ['Feedback'],
    history: [
      { role: 'tutor', text: 'What do you get?' },
      { role: 'student', text: `I think it is ${i + 5}.` },
    ],
    a: { source: 'ZQXSRC-alpha-model', text: `Let us check: ${i + 2} groups of 3.` },
    b: { source: 'ZQXSRC-beta-reference', text: 'Try adding 3 again and again.' },
  }));
}

async function createStudy(token: string, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/api/v1/studies', { headers: bearer(token), data: body });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-api-data-'));
  dbFile = path.join(dir, 'concord.db');
  server = new OwnServer(dbFile, PORT, { CONCORD_API_BURST: '200', CONCORD_API_RATE: '50' });
  cli(['user', 'add', LEAD, '--role', 'lead', '--name', 'Data Lead'], `${PASSWORD}\n`);
  cli(['user', 'add', ANN, '--role', 'annotator', '--name', 'Data Annotator'], `${PASSWORD}\n`);
  cli(['user', 'add', OTHER, '--role', 'annotator', '--name', 'Other Annotator'], `${PASSWORD}\n`);
  await server.start();
  api = await playwrightRequest.newContext({ baseURL: server.baseURL });
  doc = (await (await api.get('/api/openapi.json')).json()) as typeof doc;
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.kill9();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a lead imports items and a judge run, an annotator reviews over the API, and the lead reads ground truth and a report', async () => {
  test.setTimeout(120_000);
  const lead = tokenOf(LEAD, 'pipeline');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API data study', reviewersPerItem: 1 });
  const items = pairwiseItems('pw', 4);

  const post = (url: string, body: string) =>
    api.post(url, { headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' }, data: body });
  const imported = await post(`/api/v1/studies/${id}/items?format=concord&filename=pw.jsonl`, jsonl(items));
  expect(imported.status()).toBe(200);
  expect(await documented(imported, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 4, inserted: 4, unchanged: 0 });
  // Sending the same file again changes nothing.
  const again = await post(`/api/v1/studies/${id}/items`, jsonl(items));
  expect(await documented(again, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 4, inserted: 0, unchanged: 4 });

  const verdicts = items.map((it) => ({ item: it.id, judge: 'ZQXJUDGE-gpt', labels: { overall: 'win' }, rationale: 'ZQXJUDGE says a' }));
  const judged = await post(`/api/v1/studies/${id}/judge-runs?name=ZQXJUDGE-gpt&format=concord`, jsonl(verdicts));
  expect(judged.status(), await judged.text()).toBe(200);
  expect(await documented(judged, 'POST', '/api/v1/studies/{id}/judge-runs')).toMatchObject({
    run: 'ZQXJUDGE-gpt',
    records: 4,
    unparsed: [],
  });

  await documented(
    await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } }),
    'PUT',
    '/api/v1/studies/{id}/members',
  );
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  // The annotator works through the queue over the API; each submission is sent twice (a retry).
  const ann = tokenOf(ANN, 'my-front-end');
  for (let i = 1; i <= items.length; i++) {
    const nextRes = await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) });
    expect(SECRET.test(await nextRes.text())).toBe(false);
    const next = (await documented(nextRes, 'GET', '/api/v1/studies/{id}/next')) as {
      queue: { submitted: number; currentId: number };
      assignment: { assignmentId: number; criteria: { id: string }[] };
    };
    expect(next.queue.submitted).toBe(i - 1);
    expect(next.assignment.assignmentId).toBe(next.queue.currentId);
    const body = {
      requestId: `api-data-${i}-${Date.now()}`,
      activeMs: 1500,
      choices: Object.fromEntries(next.assignment.criteria.map((c) => [c.id, 'r1'])),
    };
    const url = `/api/v1/assignments/${next.assignment.assignmentId}/submission`;
    const first = await api.post(url, { headers: bearer(ann), data: body });
    expect(await documented(first, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({
      duplicate: false,
      queue: { submitted: i },
    });
    const retry = await api.post(url, { headers: bearer(ann), data: body });
    expect(await documented(retry, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({
      duplicate: true,
      queue: { submitted: i },
    });
    expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.assignment.assignmentId)).toBe(1);
  }
  const done = (await documented(
    await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) }),
    'GET',
    '/api/v1/studies/{id}/next',
  )) as {
    assignment: unknown;
    queue: { currentId: number | null };
  };
  expect(done).toMatchObject({ assignment: null, queue: { currentId: null } });

  const gt = await api.get(`/api/v1/studies/${id}/ground-truth?format=jsonl`, { headers: bearer(lead) });
  expect(gt.status()).toBe(200);
  expect(gt.headers()['content-type']).toContain('application/x-ndjson');
  expect(gt.headers()['x-concord-incomplete-items']).toBe('0');
  const rows = (await gt.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { item: string; criterion: string; provenance: string });
  expect(new Set(rows.map((r) => r.item))).toEqual(new Set(items.map((it) => it.id)));
  const csv = await api.get(`/api/v1/studies/${id}/ground-truth?format=csv`, { headers: bearer(lead) });
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect((await csv.text()).split('\n')[0]).toMatch(/^"item","criterion","label","provenance"/);

  const reportRes = await api.get(`/api/v1/studies/${id}/reports/alignment?judge=ZQXJUDGE-gpt&bootstrap=0`, { headers: bearer(lead) });
  const report = await documented(reportRes, 'GET', '/api/v1/studies/{id}/reports/{report}');
  // The same JSON as the command line prints.
  expect(report).toEqual(
    JSON.parse(cli(['report', 'alignment', '--study', String(id), '--judge', 'ZQXJUDGE-gpt', '--bootstrap', '0', '--json'])),
  );
  const bad = await api.get(`/api/v1/studies/${id}/reports/alignment?judge=nobody&bootstrap=0`, { headers: bearer(lead) });
  expect(bad.status()).toBeGreaterThanOrEqual(400);
  await documented(bad, 'GET', '/api/v1/studies/{id}/reports/{report}');
  const unknown = await api.get(`/api/v1/studies/${id}/reports/horoscope`, { headers: bearer(lead) });
  expect(unknown.status()).toBe(404);
  await documented(unknown, 'GET', '/api/v1/studies/{id}/reports/{report}');
});

test('prior annotations are imported from the body, all or nothing', async () => {
  const lead = tokenOf(LEAD, 'annotations');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API prior annotations', reviewersPerItem: 2 });
  const items = pairwiseItems('prior', 2);
  const headers = { ...bearer(lead), 'content-type': 'application/x-ndjson' };
  expect((await api.post(`/api/v1/studies/${id}/items`, { headers, data: jsonl(items) })).status()).toBe(200);
  const labels = items.map((it) => ({ item: it.id, annotator: 'prior-rater', labels: { overall: 'win' } }));
  const res = await api.post(`/api/v1/studies/${id}/annotations?format=concord`, { headers, data: jsonl(labels) });
  expect(await documented(res, 'POST', '/api/v1/studies/{id}/annotations')).toEqual({ records: 2, inserted: 2, unchanged: 0 });
  // One bad line refuses the whole file.
  const mixed = [
    { item: items[0].id, annotator: 'second-rater', labels: { overall: 'win' } },
    { item: 'no-such-item', annotator: 'second-rater', labels: { overall: 'win' } },
  ];
  const refused = await api.post(`/api/v1/studies/${id}/annotations?format=concord`, { headers, data: jsonl(mixed) });
  expect(refused.status()).toBe(400);
  const problem = (await documented(refused, 'POST', '/api/v1/studies/{id}/annotations')) as { errors: { line?: number }[] };
  expect(problem.errors.map((e) => e.line)).toContain(2);
  expect(sql<number>("SELECT count(*) FROM users WHERE username = 'second-rater'")).toBe(0);
});

test('a refused file writes nothing and its problem document names every bad line and field', async () => {
  const lead = tokenOf(LEAD, 'refusals');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API refused file', reviewersPerItem: 1 });
  const [good1, good2, good3] = pairwiseItems('bad', 3);
  const { a: _a, ...noA } = good2;
  const lines = [JSON.stringify(good1), JSON.stringify(noA), '{"id": "broken"', JSON.stringify({ ...good3, problem: 42 })].join('\n');
  const res = await api.post(`/api/v1/studies/${id}/items?format=concord`, {
    headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' },
    data: lines,
  });
  expect(res.status()).toBe(400);
  const problem = (await documented(res, 'POST', '/api/v1/studies/{id}/items')) as { errors: { line?: number; path: string }[] };
  expect(problem.errors.map((e) => e.line)).toEqual(expect.arrayContaining([2, 3, 4]));
  expect(problem.errors.find((e) => e.line === 2)?.path).toContain('a');
  expect(problem.errors.find((e) => e.line === 4)?.path).toContain('problem');
  expect(problem.errors.some((e) => e.line === 1)).toBe(false);
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', id)).toBe(0);

  const unknownFormat = await api.post(`/api/v1/studies/${id}/items?format=excel`, {
    headers: { ...bearer(lead), 'content-type': 'text/csv' },
    data: 'a,b\n',
  });
  expect(unknownFormat.status()).toBe(400);
  expect(
    ((await documented(unknownFormat, 'POST', '/api/v1/studies/{id}/items')) as { errors: { path: string }[] }).errors.map((e) => e.path),
  ).toContain('format');
  // A multipart form (requests' files=) is not the file: said plainly, before anything is stored.
  const form = await api.post(`/api/v1/studies/${id}/items`, {
    headers: bearer(lead),
    multipart: { file: { name: 'items.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(JSON.stringify(good1)) } },
  });
  expect(form.status()).toBe(415);
  await documented(form, 'POST', '/api/v1/studies/{id}/items');
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', id)).toBe(0);
});

test("each role's refusals: annotators may not import or read study data, and only a study's reviewers get its items", async () => {
  const lead = tokenOf(LEAD, 'roles');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API roles', reviewersPerItem: 1 });
  const headers = { ...bearer(lead), 'content-type': 'application/x-ndjson' };
  expect((await api.post(`/api/v1/studies/${id}/items`, { headers, data: jsonl(pairwiseItems('roles', 2)) })).status()).toBe(200);
  await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } });
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  const ann = tokenOf(ANN, 'roles');
  const body = { headers: { ...bearer(ann), 'content-type': 'application/x-ndjson' }, data: jsonl(pairwiseItems('sneaky', 1)) };
  const staffOnly: [string, Promise<APIResponse>, string][] = [
    ['POST', api.post(`/api/v1/studies/${id}/items`, body), '/api/v1/studies/{id}/items'],
    ['POST', api.post(`/api/v1/studies/${id}/annotations`, body), '/api/v1/studies/{id}/annotations'],
    ['POST', api.post(`/api/v1/studies/${id}/judge-runs?name=mine`, body), '/api/v1/studies/{id}/judge-runs'],
    ['GET', api.get(`/api/v1/studies/${id}/ground-truth`, { headers: bearer(ann) }), '/api/v1/studies/{id}/ground-truth'],
    [
      'GET',
      api.get(`/api/v1/studies/${id}/reports/agreement?bootstrap=0`, { headers: bearer(ann) }),
      '/api/v1/studies/{id}/reports/{report}',
    ],
  ];
  for (const [method, call, template] of staffOnly) {
    const res = await call;
    expect(res.status(), `${method} ${template}`).toBe(403);
    await documented(res, method, template);
  }
  expect(sql<number>("SELECT count(*) FROM items WHERE external_id LIKE 'sneaky-%'")).toBe(0);

  // Someone who does not review the study gets neither its items nor its assignments.
  const other = tokenOf(OTHER, 'roles');
  const notMine = await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(other) });
  expect([403, 404]).toContain(notMine.status());
  await documented(notMine, 'GET', '/api/v1/studies/{id}/next');
  const next = (await (await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) })).json()) as { queue: { currentId: number } };
  const stolen = await api.post(`/api/v1/assignments/${next.queue.currentId}/submission`, {
    headers: bearer(other),
    data: { requestId: 'stolen-submission', activeMs: 10, choices: { overall: 'r1' } },
  });
  expect([403, 404]).toContain(stolen.status());
  await documented(stolen, 'POST', '/api/v1/assignments/{id}/submission');
  // The submission's rules are the screen's: a body without a requestId is refused, naming the field.
  const noId = await api.post(`/api/v1/assignments/${next.queue.currentId}/submission`, {
    headers: bearer(ann),
    data: { activeMs: 10, choices: { overall: 'r1' } },
  });
  expect(noId.status()).toBe(400);
  expect(
    ((await documented(noId, 'POST', '/api/v1/assignments/{id}/submission')) as { errors: { path: string }[] }).errors.map((e) => e.path),
  ).toContain('body.requestId');
  expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.queue.currentId)).toBe(0);
});

/** The server's own processes (its process group, the import processes it starts left out): their resident memory. */
function serverRss(): number {
  const group = server.proc!.child.pid!;
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('import-child')) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'));
      total += rss ? Number(rss[1]) * KiB : 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** POSTs a file streamed from disk in 64 KiB writes, each waiting for the socket to drain. */
function streamFile(
  pathname: string,
  file: string,
  token: string,
  options: { chunked?: boolean; cutAfter?: number } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: PORT,
      method: 'POST',
      path: pathname,
      headers: {
        'content-type': 'application/x-ndjson',
        ...(options.chunked ? {} : { 'content-length': fs.statSync(file).size }),
        ...bearer(token),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (e) => (options.cutAfter === undefined ? reject(e) : resolve({ status: 0, body: e.message })));
    void (async () => {
      const end = options.cutAfter === undefined ? {} : { end: options.cutAfter - 1 };
      for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * KiB, ...end })) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      // Cut short: the connection ends before the announced length has come.
      if (options.cutAfter === undefined) req.end();
      else req.socket?.end();
    })();
  });
}

test("a 96 MiB import streams through: the server's memory does not grow by the body's size", async () => {
  test.setTimeout(240_000);
  const lead = tokenOf(LEAD, 'large');
  const id = await createStudy(lead, { kind: 'flow_review', name: 'API large import', reviewersPerItem: 1 });
  // 98,304 flows of exactly 1 KiB each, written a few MiB at a time.
  const n = 96 * KiB;
  const file = path.join(dir, 'large.jsonl');
  const fd = fs.openSync(file, 'w');
  const pad = 'Let us look at what the question asks before we compute anything. '.repeat(20);
  let chunk = '';
  for (let i = 1; i <= n; i++) {
    const head = `{"id":"large-${String(i).padStart(6, '0')}","problem":{"text":"Problem ${i}"},"steps":[{"speaker":"tutor","text":"`;
    const tail = '"}]}';
    chunk += head + pad.slice(0, KiB - 1 - head.length - tail.length) + tail + '\n';
    if (chunk.length >= 4 * MiB) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  expect(fs.statSync(file).size).toBe(96 * MiB);

  // Settle first: the route is compiled and loaded by a small import, so what follows measures the upload alone.
  const warm = await api.post(`/api/v1/studies/${id}/items`, {
    headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' },
    data: `${JSON.stringify({ id: 'warm-1', problem: { text: 'Warm up' }, steps: [{ speaker: 'tutor', text: 'Hello.' }] })}\n`,
  });
  expect(warm.status()).toBe(200);
  const before = serverRss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, serverRss())), 20);
  try {
    const answer = await streamFile(`/api/v1/studies/${id}/items?format=concord&filename=large.jsonl`, file, lead);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ records: n, inserted: n, unchanged: 0 });
  } finally {
    clearInterval(sampler);
  }
  // Holding the body would add at least its 96 MiB; streamed to disk, the server grows by well under half of it
  // (the garbage collector lets some of the chunks that went through pile up before it runs).
  console.log(`server RSS ${before / MiB} MiB before, peak ${peak / MiB} MiB`);
  expect(peak - before).toBeLessThan(48 * MiB);
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', id)).toBe(n + 1);
});

test('a body sent without a length is imported; one cut short is refused whole, and nothing of it is kept', async () => {
  const lead = tokenOf(LEAD, 'chunked');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API chunked and cut', reviewersPerItem: 1 });
  const file = path.join(dir, 'chunked.jsonl');
  fs.writeFileSync(file, jsonl(pairwiseItems('chunk', 200)));
  const chunked = await streamFile(`/api/v1/studies/${id}/items`, file, lead, { chunked: true });
  expect(chunked.status, chunked.body).toBe(200);
  expect(JSON.parse(chunked.body)).toEqual({ records: 200, inserted: 200, unchanged: 0 });

  const other = await createStudy(lead, { kind: 'pairwise', name: 'API cut short', reviewersPerItem: 1 });
  // Cut right after a line break: what came is a valid, smaller file, and must still not be imported.
  const text = fs.readFileSync(file, 'utf8');
  const cutAt = Buffer.byteLength(text.slice(0, text.indexOf('\n', text.length / 2) + 1));
  const cut = await streamFile(`/api/v1/studies/${other}/items`, file, lead, { cutAfter: cutAt });
  expect(cut.status).not.toBe(200);
  // The server ends the request in its own time once the connection is gone: its stored part is then removed.
  const left = () => (fs.existsSync(path.join(dir, 'uploads')) ? fs.readdirSync(path.join(dir, 'uploads')) : []);
  await expect.poll(left, { timeout: 20_000 }).toEqual([]);
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', other)).toBe(0);
});

test('a flow review over the API: the next flow, a decision submitted, a reused requestId with another decision refused', async () => {
  const lead = tokenOf(LEAD, 'flows');
  const id = await createStudy(lead, { kind: 'flow_review', name: 'API flow review', reviewersPerItem: 1 });
  const flows = [1, 2].map((i) => ({
    id: `apiflow-${i}`,
    problem: { text: `Problem ${i}` },
    steps: [{ speaker: 'tutor', text: 'Hello.' }],
  }));
  const imported = await api.post(`/api/v1/studies/${id}/items`, {
    headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' },
    data: jsonl(flows),
  });
  expect(await documented(imported, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 2, inserted: 2, unchanged: 0 });
  await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } });
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  const ann = tokenOf(ANN, 'flows');
  const next = (await documented(
    await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) }),
    'GET',
    '/api/v1/studies/{id}/next',
  )) as {
    assignment: { kind: string; assignmentId: number; flow: { steps: unknown[] } };
  };
  expect(next.assignment).toMatchObject({ kind: 'flow_review', flow: { steps: [{ speaker: 'tutor', text: 'Hello.' }] } });
  const url = `/api/v1/assignments/${next.assignment.assignmentId}/submission`;
  const requestId = `api-flow-${Date.now()}`;
  const ok = await api.post(url, { headers: bearer(ann), data: { requestId, activeMs: 900, decision: { decision: 'verify' } } });
  expect(await documented(ok, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({ duplicate: false, queue: { submitted: 1 } });
  // The screen's rule: the same requestId with another decision is a conflict, and nothing is written.
  const other = await api.post(url, {
    headers: bearer(ann),
    data: { requestId, activeMs: 900, decision: { decision: 'discard', reasons: ['off_topic'] } },
  });
  expect(other.status(), await other.text()).toBe(409);
  await documented(other, 'POST', '/api/v1/assignments/{id}/submission');
  expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.assignment.assignmentId)).toBe(1);
});
