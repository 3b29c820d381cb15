import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Gold items in the browser (docs/decisions/0030): a lead imports items of which some carry a known answer, sets the
 * gold rate and the accuracy threshold on the study page and marks one more item gold from its page; the reviewers'
 * queues then hold the gold items among the others, and nothing they receive says which; a reviewer who misses the
 * gold answers is named in a notice on the study page; the API serves the same figures as the CLI.
 */

test.describe.configure({ mode: 'serial' });

const ITEMS = 6;
let studyId: number;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-gold-'));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `chk-${i + 1}`,
    problem: `What is ${i + 3} × 4? (check ${i + 1})`,
    principles: [],
    history: [{ role: 'student', text: `Is it ${i + 10}?` }],
    a: { source: 'model-a', text: `Count ${i + 3} groups of 4.` },
    b: { source: 'model-b', text: 'Add 4 again and again.' },
    // Two items come with their known answer.
    ...(i === 1 || i === 4 ? { gold: { overall: 'win' } } : {}),
  }));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Checked replies', '--criteria', 'none', '--reviewers', '2', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), path.join(dir, 'items.jsonl')]);
  concord(['study', 'members', String(studyId), 'ann1', 'ann2']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the lead sets the gold rate and threshold, and marks an item gold from its page', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  const gold = page.getByTestId('gold-section');
  await expect(gold).toContainText('2 gold item(s)');
  await gold.getByLabel('Gold rate').fill('50');
  await gold.getByLabel('Warn below accuracy').fill('75');
  await gold.getByRole('button', { name: 'Save gold settings' }).click();
  await expect(gold.getByRole('status')).toHaveText('Gold settings saved.');

  await page.goto(`/studies/${studyId}/items`);
  await page.getByRole('link', { name: 'chk-3' }).click();
  const control = page.getByTestId('gold-control');
  await expect(control.getByTestId('gold-state')).toHaveText('Not a gold item.');
  await control.getByLabel('overall').selectOption('lose');
  await control.getByRole('button', { name: 'Save gold answer' }).click();
  await expect(control.getByRole('status')).toHaveText('Gold answer saved.');
  await page.reload();
  await expect(page.getByTestId('gold-control').getByTestId('gold-state')).toContainText('This item is a gold item');
  await expect(page.getByTestId('gold-control').getByLabel('overall')).toHaveValue('lose');

  await page.goto(`/studies/${studyId}/items`);
  const listed = page.getByTestId('gold-items');
  await listed.locator('summary').click();
  await expect(listed.getByRole('listitem')).toHaveCount(3);
  await expect(listed.getByTestId('gold-item-chk-3')).toContainText('overall: lose');
  await expect(listed.getByTestId('gold-item-chk-2')).toContainText('overall: win');

  await page.goto(`/studies/${studyId}`);
  await expect(page.getByTestId('gold-section')).toContainText('3 gold item(s)');
  await context.close();
  concord(['study', 'open', String(studyId)]);
});

/** Records the body of every document and JSON response the page receives (scripts are the app's, the same for all). */
function recordResponses(page: Page) {
  const bodies: { url: string; body: string }[] = [];
  page.on('response', async (res) => {
    if (res.url().includes('/_next/static/')) return;
    try {
      bodies.push({ url: res.url(), body: await res.text() });
    } catch {
      // redirects and aborted requests have no body
    }
  });
  return bodies;
}

test('reviewers get the gold items among the others, and nothing they receive says which', async ({ browser, playwright, baseURL }) => {
  // ann1 on the review screen: every document and JSON answer is recorded.
  const { context, page } = await asUser(browser, 'ann1');
  const seen = recordResponses(page);
  await page.goto(`/studies/${studyId}/review`);
  const overall = page.getByTestId('criterion-overall');
  // Three regular items each (six, two reviewers apiece, shared by two) and, at 50 %, as many gold ones: all three.
  for (let i = 1; i <= ITEMS; i++) {
    await expect(overall.getByRole('radio')).toHaveCount(3);
    await expect(overall.getByRole('radio', { checked: true })).toHaveCount(0);
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(page.getByTestId('all-done')).toBeVisible();
  expect(seen.length).toBeGreaterThan(3);
  expect(seen.filter((b) => /gold/i.test(b.body)).map((b) => b.url)).toEqual([]);
  await context.close();

  // ann2 through the HTTP API's next item, calling every item a tie.
  const { token } = JSON.parse(concord(['token', 'create', '--user', 'ann2', '--name', `gold review ${studyId}`, '--json'])) as {
    token: string;
  };
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  for (let i = 0; i < ITEMS; i++) {
    const res = await api.get(`/api/v1/studies/${studyId}/next`);
    expect(res.status()).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/gold/i);
    const next = JSON.parse(text) as { queue: { total: number }; assignment: { assignmentId: number; criteria: { id: string }[] } };
    expect(next.queue.total).toBe(ITEMS);
    const submitted = await api.post(`/api/v1/assignments/${next.assignment.assignmentId}/submission`, {
      data: {
        requestId: `gold-api-${studyId}-${i}`,
        activeMs: 100,
        choices: Object.fromEntries(next.assignment.criteria.map((c) => [c.id, 'tie'])),
      },
    });
    expect(submitted.status()).toBe(200);
    expect(await submitted.text()).not.toMatch(/gold/i);
  }
  await api.dispose();
});

test('the lead sees each reviewer’s accuracy on gold, and a notice naming the one below the threshold', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  // ann2 called every item a tie; the gold answers are win, win and lose.
  const notice = page.getByTestId('gold-notice');
  await expect(notice).toContainText('below 75 %');
  await expect(notice).toContainText('Annotator Two');
  await expect(notice).toContainText('0 of 3');
  await expect(page.getByTestId('gold-row-ann2')).toContainText('0 / 3');
  await expect(page.getByTestId('gold-row-ann1')).toContainText('/ 3');
  await context.close();
});

test('the API serves the gold report exactly as concord report gold --json prints it', async ({ playwright, baseURL }) => {
  const { token } = JSON.parse(concord(['token', 'create', '--user', 'lead', '--name', `gold ${studyId}`, '--json'])) as { token: string };
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const res = await api.get(`/api/v1/studies/${studyId}/reports/gold`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toEqual(JSON.parse(concord(['report', 'gold', '--study', String(studyId), '--json'])));
  expect(body.reviewers.find((r: { username: string }) => r.username === 'ann2')).toMatchObject({
    compared: 3,
    correct: 0,
    accuracy: 0,
    below: true,
  });
  await api.dispose();
});

test('the command line and the API set the gold rate and mark items, with the same rules as the study page', async ({
  playwright,
  baseURL,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-gold-cli-'));
  const items = Array.from({ length: 4 }, (_, i) => ({
    id: `g-${i + 1}`,
    problem: `What is ${i + 2} + 5?`,
    principles: [],
    history: [{ role: 'student', text: 'I think it is 9.' }],
    a: { source: 'model-a', text: 'Count on from 5.' },
    b: { source: 'model-b', text: 'Add the ones.' },
  }));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  const draft = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Gold by script', '--criteria', 'none', '--json']))
    .id as number;
  concord(['import', 'items', '--study', String(draft), path.join(dir, 'items.jsonl')]);
  fs.rmSync(dir, { recursive: true, force: true });

  // The command line.
  expect(JSON.parse(concord(['gold', 'settings', String(draft), '--rate', '20', '--alert-below', '70', '--json']))).toEqual({
    ratePct: 20,
    alertBelowPct: 70,
  });
  const marked = JSON.parse(concord(['gold', 'mark', String(draft), '--item', 'g-1', '--labels', '{"overall":"tie"}', '--json']));
  expect(marked.labels).toEqual({ overall: 'tie' });
  expect(() => concord(['gold', 'mark', String(draft), '--item', 'g-2', '--labels', '{"overall":"maybe"}'])).toThrow(/maybe/);

  // The API, as a lead; an annotator is refused.
  const token = (user: string) =>
    (JSON.parse(concord(['token', 'create', '--user', user, '--name', `gold script ${draft} ${user}`, '--json'])) as { token: string })
      .token;
  const lead = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token('lead')}` } });
  const settings = await lead.put(`/api/v1/studies/${draft}/gold`, { data: { ratePct: 25, alertBelowPct: null } });
  expect(settings.status(), await settings.text()).toBe(200);
  expect(await settings.json()).toEqual({ ratePct: 25, alertBelowPct: null });
  const item = await lead.put(`/api/v1/studies/${draft}/gold/g-2`, { data: { labels: { overall: 'win' } } });
  expect(item.status(), await item.text()).toBe(200);
  expect((await item.json()).labels).toEqual({ overall: 'win' });
  const unmark = await lead.put(`/api/v1/studies/${draft}/gold/g-1`, { data: { labels: { overall: null } } });
  expect((await unmark.json()).labels).toEqual({});
  const missing = await lead.put(`/api/v1/studies/${draft}/gold/nope`, { data: { labels: { overall: 'win' } } });
  expect(missing.status()).toBe(404);
  const annotator = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token('ann1')}` } });
  expect((await annotator.put(`/api/v1/studies/${draft}/gold`, { data: { ratePct: 0, alertBelowPct: null } })).status()).toBe(403);

  // Both wrote what the study page reads: one gold item (g-2), the API's settings; once open, the rate is fixed.
  expect(JSON.parse(concord(['gold', 'settings', String(draft), '--json']))).toEqual({ ratePct: 25, alertBelowPct: null });
  concord(['study', 'members', String(draft), 'ann1', 'ann2']);
  concord(['study', 'open', String(draft)]);
  const fixed = await lead.put(`/api/v1/studies/${draft}/gold`, { data: { ratePct: 10, alertBelowPct: null } });
  expect(fixed.status()).toBe(409);
  expect(JSON.parse(concord(['report', 'gold', '--study', String(draft), '--json'])).goldItems).toBe(1);
  await lead.dispose();
  await annotator.dispose();
});
