import { expect, test } from '@playwright/test';
import { performance } from 'node:perf_hooks';
import { concord } from './support/cli';
import { signInOverHttp } from './support/server';
import { DEMO_PASSWORD } from './support/session';

// A bootstrap of the largest size the server accepts, on the PandaLM demo study (study 5), runs in a process of
// its own: the server keeps answering meanwhile, the numbers are the CLI's, and a larger request is refused.
const STUDY = 5;
const MAX = 10_000;

test('the health check answers at once while a maximal bootstrap runs, and the report is the CLI’s', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const lead = await signInOverHttp(baseURL!, 'lead', DEMO_PASSWORD);
  let done = false;
  const started = performance.now();
  const report = lead.get(`/api/studies/${STUDY}/reports/agreement?bootstrap=${MAX}`).finally(() => (done = true));
  const health: number[] = [];
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(`${baseURL}/api/health`);
    expect(res.status).toBe(200);
    health.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 25));
  }
  const res = await report;
  const reportMs = performance.now() - started;
  expect(res.status()).toBe(200);
  const json = await res.json();
  expect(json.bootstrap.replicates).toBe(MAX);
  // The report took long enough for the checks to mean something, and none of them waited for it.
  expect(reportMs).toBeGreaterThan(1_000);
  expect(health.length).toBeGreaterThan(10);
  expect(Math.max(...health)).toBeLessThan(500);
  expect(json).toEqual(JSON.parse(concord(['report', 'agreement', '--study', String(STUDY), '--bootstrap', String(MAX), '--json'])));
  await lead.dispose();
});

test('more replicates than the cap are refused with a message that says the cap', async ({ baseURL }) => {
  const lead = await signInOverHttp(baseURL!, 'lead', DEMO_PASSWORD);
  for (const report of ['agreement', 'alignment?judge=pandalm-7b&', 'leaderboard']) {
    const url = `/api/studies/${STUDY}/reports/${report}${report.includes('?') ? '' : '?'}bootstrap=${MAX + 1}`;
    const res = await lead.get(url);
    expect(res.status()).toBe(400);
    expect((await res.json()).error).toBe('bootstrap: at most 10,000 bootstrap replicates, not 10,001.');
  }
  await lead.dispose();
});
