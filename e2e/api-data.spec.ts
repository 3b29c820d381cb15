import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { ApiSpecServer, LEAD, bearer, jsonl, pairwiseItems } from './support/api-spec';

/*
 * Imports through the HTTP API over real HTTP against the production build, on a server and database of this
 * spec's own (port 3941, so that the server's memory can be watched during a large upload): items, prior
 * annotations and whole files streamed as the body, refused whole when any of it is bad. Every JSON answer is
 * checked against the OpenAPI document the server serves. Reviewing and reading over the API: api-review.spec.ts.
 */
const PORT = 3941;
const KiB = 1024;
const MiB = 1024 * KiB;

let spec: ApiSpecServer;
let api: APIRequestContext;
const tokenOf = (username: string, name: string) => spec.tokenOf(username, name);
const sql = <T>(query: string, ...args: unknown[]) => spec.sql<T>(query, ...args);
const documented = (res: APIResponse, method: string, template: string) => spec.documented(res, method, template);
const createStudy = (token: string, body: Record<string, unknown>) => spec.createStudy(token, body);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  spec = new ApiSpecServer(PORT);
  await spec.start();
  api = spec.api;
});

test.afterAll(async () => {
  await spec?.stop();
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

/** The server's own processes (its process group, the import processes it starts left out): their resident memory. */
function serverRss(): number {
  const group = spec.server.proc!.child.pid!;
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

test("a 256 MiB import streams through: the server's memory does not grow by the body's size", async () => {
  test.setTimeout(240_000);
  const lead = tokenOf(LEAD, 'large');
  const id = await createStudy(lead, { kind: 'flow_review', name: 'API large import', reviewersPerItem: 1 });
  // 262,144 flows of exactly 1 KiB each, written a few MiB at a time. Large beside what the server lets pile up
  // between two garbage collections while a body streams through (up to 88 MiB seen on a slow day), so that the
  // peak tells holding the body from streaming it.
  const n = 256 * KiB;
  const file = path.join(spec.dir, 'large.jsonl');
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
  expect(fs.statSync(file).size).toBe(256 * MiB);

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
  // Holding the body would add at least its 256 MiB; streamed to disk, the server grows by well under half of it
  // (the garbage collector lets some of the chunks that went through pile up before it runs).
  console.log(`server RSS ${before / MiB} MiB before, peak ${peak / MiB} MiB`);
  expect(peak - before).toBeLessThan(128 * MiB);
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', id)).toBe(n + 1);
});

test('a body sent without a length is imported; one cut short is refused whole, and nothing of it is kept', async () => {
  const lead = tokenOf(LEAD, 'chunked');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API chunked and cut', reviewersPerItem: 1 });
  const file = path.join(spec.dir, 'chunked.jsonl');
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
  const left = () => (fs.existsSync(path.join(spec.dir, 'uploads')) ? fs.readdirSync(path.join(spec.dir, 'uploads')) : []);
  await expect.poll(left, { timeout: 20_000 }).toEqual([]);
  expect(sql<number>('SELECT count(*) FROM items WHERE study_id = ?', other)).toBe(0);
});
