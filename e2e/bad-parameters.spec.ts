import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { concord } from './support/cli';
import { signInOverHttp } from './support/server';

/*
 * Query parameters no list can honour — a search of 5,000 characters, page 1e40, a page number past 2^53 — and a
 * web upload in a format that needs more than one file. Each used to end in a 500 (an unhandled refusal, SQLite's
 * "datatype mismatch", an adapter's error); each is now a 4xx that says what was wrong. Pages can only answer 404
 * (Next has no other status for a page); routes answer 400 with the message in JSON.
 */

// Of this worker's own: after a failure Playwright starts a new worker, which runs beforeAll again.
const LEAD = `badparamlead${Date.now() % 100_000_000}`;
const PASSWORD = 'bad-param-pass-2026';
const LONG = 'q'.repeat(5000);
const FLOWS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');

let flow = 0;
let pair = 0;
let lead: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  concord(['user', 'add', LEAD, '--role', 'lead', '--name', 'Bad Params'], `${PASSWORD}\n`);
  const create = (kind: string, name: string) =>
    (JSON.parse(concord(['study', 'create', '--kind', kind, '--name', name, '--json'])) as { id: number }).id;
  flow = create('flow_review', 'Bad params flows');
  concord(['import', 'items', '--study', String(flow), FLOWS]);
  pair = create('pairwise', 'Bad params pairs');
  concord(['import', 'items', '--study', String(pair), PAIRS]);
  lead = await signInOverHttp(baseURL!, LEAD, PASSWORD);
});

test.afterAll(async () => {
  await lead?.dispose();
});

const NOT_FOUND = /does not exist/;

test('the four requests of the audit answer 4xx with a message, not 500', async () => {
  const pages = [`/studies?q=${LONG}`, `/studies/${flow}/items?page=1e40`, `/studies/${flow}/review/history?page=99999999999999999999`];
  for (const url of pages) {
    const res = await lead.get(url, { maxRedirects: 0 });
    expect(res.status(), url.slice(0, 80)).toBe(404);
    expect(await res.text(), url.slice(0, 80)).toMatch(NOT_FOUND);
  }
  const upload = await lead.post(`/api/studies/${pair}/import?format=bridge&filename=test.json`, { data: fs.readFileSync(PAIRS) });
  expect(upload.status()).toBe(400);
  const body = (await upload.json()) as { ok: boolean; error: string; fieldErrors?: Record<string, string> };
  expect(body.ok).toBe(false);
  expect(body.error).toMatch(/format "bridge".*use one of: concord, pandalm\b.*command line/);
  expect(body.fieldErrors).toEqual({ format: 'Unknown format' });
});

test('their siblings too: other pages and searches out of range', async () => {
  for (const url of [
    `/studies/${flow}/items?q=${LONG}`,
    `/studies/${flow}/items?reviewer=${LONG}`,
    `/studies/${flow}/items?page=99999999999999999999`,
    `/studies/${flow}/items?page=abc`,
    `/studies/${flow}/review/history?page=1e40`,
    `/studies/${flow}/review/history?page=-3`,
  ]) {
    const res = await lead.get(url, { maxRedirects: 0 });
    expect(res.status(), url.slice(0, 80)).toBe(404);
    expect(await res.text(), url.slice(0, 80)).toMatch(NOT_FOUND);
  }
});

test('the same lists with parameters in range still answer', async () => {
  for (const url of [
    `/studies?q=${'q'.repeat(200)}`,
    '/studies?q=Bad%20params',
    `/studies/${flow}/items?page=1`,
    `/studies/${flow}/items?page=`,
    `/studies/${flow}/items?page=1000000&q=x`,
    `/studies/${flow}/review/history?page=2`,
  ]) {
    const res = await lead.get(url, { maxRedirects: 0 });
    expect(res.status(), url.slice(0, 80)).toBe(200);
  }
  expect(await (await lead.get('/studies?q=Bad%20params')).text()).toContain('Bad params flows');
});
