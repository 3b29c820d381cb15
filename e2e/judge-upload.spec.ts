import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { concord } from './support/cli';
import { signInOverHttp } from './support/server';
import { DEMO_PASSWORD } from './support/session';

// A judge run uploaded through the route, larger than the 10 MB Next buffers for the proxy: it arrives whole, is
// imported by a process of its own while the server keeps answering, and shows up only once it is complete.
const ITEMS = 5_000;

test('a judge file of more than 10 MB is uploaded whole and imported while the server answers', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-judge-'));
  try {
    const items = Array.from({ length: ITEMS }, (_, i) =>
      JSON.stringify({ id: `up-${i}`, problem: `p${i}`, a: { source: 'm', text: 'a' }, b: { source: 'ref', text: 'b' } }),
    );
    fs.writeFileSync(path.join(dir, 'items.jsonl'), `${items.join('\n')}\n`);
    const study = (
      JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Big upload', '--criteria', 'none', '--json'])) as {
        id: number;
      }
    ).id;
    concord(['import', 'items', '--study', String(study), path.join(dir, 'items.jsonl')]);
    const reason = 'The first reply points at the step where the student went wrong. '.repeat(18);
    const lines: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      for (const swapped of [false, true])
        lines.push(JSON.stringify({ item: `up-${i}`, judge: 'uploaded', labels: { overall: 'win' }, swapped, rationale: reason }));
    }
    const body = Buffer.from(`${lines.join('\n')}\n`);
    expect(body.length).toBeGreaterThan(11 << 20);

    const lead = await signInOverHttp(baseURL!, 'lead', DEMO_PASSWORD);
    let done = false;
    const upload = lead
      .post(`/api/studies/${study}/judge?format=concord&filename=big.jsonl`, {
        data: body,
        headers: { 'content-type': 'application/x-ndjson' },
        timeout: 170_000,
      })
      .finally(() => (done = true));
    const health: number[] = [];
    while (!done) {
      const t0 = performance.now();
      expect((await fetch(`${baseURL}/api/health`)).status).toBe(200);
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
    const res = await upload;
    expect(await res.json()).toEqual({ ok: true, data: { run: 'uploaded', records: 2 * ITEMS, labels: 2 * ITEMS, unparsed: [] } });
    expect(health.length).toBeGreaterThan(5);
    expect(Math.max(...health)).toBeLessThan(500);
    const runs = concord(['report', 'leaderboard', '--study', String(study), '--bootstrap', '0', '--json']);
    expect((JSON.parse(runs) as { graders: string[] }).graders).toContain('uploaded');
    // Without a session the upload is still refused by its route.
    expect((await fetch(`${baseURL}/api/studies/${study}/judge?format=concord`, { method: 'POST', body: '{}\n' })).status).toBe(401);
    await lead.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
