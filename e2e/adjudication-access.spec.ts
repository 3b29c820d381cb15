import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { concord } from './support/cli';
import { signInOverHttp } from './support/server';

/*
 * What the study's adjudicator may read over HTTP: an item with a disagreement to settle, nothing else. An item
 * the reviewers agree on, or one still being reviewed, answers exactly as a missing item does, so neither its
 * reviewers' labels nor its existence reach the adjudicator.
 */

// Of this worker's own: after a failure Playwright starts a new worker, which runs beforeAll again.
const RUN = Date.now() % 100_000_000;
const PASSWORD = 'adj-access-pass-2026';
const [R1, R2, ADJ] = ['adjacc-one', 'adjacc-two', 'adjacc-adj'].map((u) => `${u}${RUN}`);
const MISSING = 99_999_999;

let study = 0;
const item = { agreed: 0, disputed: 0, pending: 0 };
let adjudicator: APIRequestContext;

type Queue = { currentId: number | null };

async function judge(who: APIRequestContext, assignmentId: number, choice: 'tie' | 'r1', key: string) {
  const res = await who.post(`/api/assignments/${assignmentId}/submission`, {
    data: { requestId: `adjacc-${RUN}-${key}`, activeMs: 1000, choices: { overall: choice } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.beforeAll(async ({ baseURL }) => {
  for (const u of [R1, R2, ADJ]) concord(['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-adjacc-'));
  const file = path.join(dir, 'pairs.jsonl');
  const pairs = [1, 2, 3].map((i) => ({
    id: `adjacc-${i}`,
    problem: `What is ${i} × 6?`,
    history: [{ role: 'student', text: 'I am not sure.' }],
    a: { source: 'model-a', text: `Reply alpha ${i}` },
    b: { source: 'model-b', text: `Reply beta ${i}` },
  }));
  fs.writeFileSync(file, pairs.map((p) => JSON.stringify(p)).join('\n'));
  study = (
    JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Adjudicator access', '--criteria', 'none', '--json'])) as {
      id: number;
    }
  ).id;
  concord(['import', 'items', '--study', String(study), file]);
  concord(['study', 'members', String(study), R1, R2, '--adjudicator', ADJ]);
  concord(['study', 'open', String(study)]);
  fs.rmSync(dir, { recursive: true, force: true });

  const [one, two] = [await signInOverHttp(baseURL!, R1, PASSWORD), await signInOverHttp(baseURL!, R2, PASSWORD)];
  const current = async (who: APIRequestContext) => ((await (await who.get(`/api/studies/${study}/queue`)).json()) as Queue).currentId;
  const itemOf = async (who: APIRequestContext, assignmentId: number) =>
    ((await (await who.get(`/api/assignments/${assignmentId}`)).json()) as { itemId: number }).itemId;
  // The first reviewer ties everywhere. The second ties on one item (agreement: a tie reads the same in either
  // display order), prefers a reply on another (a disagreement), and leaves the third unjudged.
  for (let k = 0, id = await current(one); id; id = await current(one)) await judge(one, id, 'tie', `one-${k++}`);
  let id = (await current(two))!;
  item.agreed = await itemOf(two, id);
  await judge(two, id, 'tie', 'two-agree');
  id = (await current(two))!;
  item.disputed = await itemOf(two, id);
  await judge(two, id, 'r1', 'two-differ');
  item.pending = await itemOf(two, (await current(two))!);
  await Promise.all([one.dispose(), two.dispose()]);
  adjudicator = await signInOverHttp(baseURL!, ADJ, PASSWORD);
});

test.afterAll(async () => {
  await adjudicator?.dispose();
});

test('the adjudicator reads a disputed item, and nothing of an item the reviewers agree on or have not finished', async () => {
  const queue = (await (await adjudicator.get(`/api/studies/${study}/adjudication`)).json()) as { items: { itemId: number }[] };
  expect(queue.items.map((i) => i.itemId)).toEqual([item.disputed]);

  const disputed = await adjudicator.get(`/api/studies/${study}/adjudication/${item.disputed}`);
  expect(disputed.status()).toBe(200);
  expect(((await disputed.json()) as { criteria: { reviewers: string[] }[] }).criteria[0].reviewers).toHaveLength(2);

  const missing = await adjudicator.get(`/api/studies/${study}/adjudication/${MISSING}`);
  expect(missing.status()).toBe(404);
  const missingBody = await missing.json();
  for (const [what, itemId] of [
    ['agreed', item.agreed],
    ['pending', item.pending],
  ] as const) {
    const res = await adjudicator.get(`/api/studies/${study}/adjudication/${itemId}`);
    expect(res.status(), `${what} item ${itemId}`).toBe(404);
    // The same answer as for an item that does not exist: nothing tells the two apart.
    expect(await res.json(), `${what} item ${itemId}`).toEqual(missingBody);
  }
});
