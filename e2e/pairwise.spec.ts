import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { withReadonlyDb } from './support/server';
import { asUser, DEMO_PASSWORD } from './support/session';

// The KMP-style pairwise items (3 items, the default catalog) as the demo has them, in a study of this spec's own,
// judged by two reviewers and adjudicated by one, all of its own: no other spec sees or changes what they do.
const ITEMS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
const [ONE, TWO, ADJ] = ['pw-ann1', 'pw-ann2', 'pw-adj'];
const NAME = 'Pairwise e2e';
let STUDY = 0;

// The study and its people are made once, for both tests: a failed test skips the rest rather than making them again.
test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  for (const u of [ONE, TWO, ADJ]) concord(['user', 'add', u, '--role', 'annotator'], DEMO_PASSWORD);
  STUDY = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', NAME, '--reviewers', '2', '--seed', '3', '--json'])).id;
  concord(['import', 'items', '--study', String(STUDY), ITEMS]);
  concord(['study', 'members', String(STUDY), ONE, TWO, '--adjudicator', ADJ]);
  concord(['study', 'open', String(STUDY)]);
});

/** Waits until a new item is on screen: its overall verdict has no choice yet. */
async function freshItem(page: Page) {
  const overall = page.getByTestId('criterion-overall');
  await expect(overall.getByRole('radio')).toHaveCount(3);
  await expect(overall.getByRole('radio', { checked: true })).toHaveCount(0);
}

/** Judges the current item by keyboard: `choice` for every criterion, except overall when `overall` is given. */
async function judgeItem(page: Page, choice: '1' | '2' | '3', overall?: '1' | '2' | '3') {
  await freshItem(page);
  const rows = page.locator('[data-testid^="criterion-"]');
  const n = await rows.count();
  expect(n).toBeGreaterThan(1);
  for (let i = 0; i < n - 1; i++) await page.keyboard.press(choice);
  await expect(page.getByTestId('criterion-overall')).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press(overall ?? choice);
  await page.keyboard.press('Enter');
}

test('two reviewers judge blind by keyboard, a disagreement is adjudicated, and the ground truth is exported', async ({ browser }) => {
  const one = await asUser(browser, ONE);
  const two = await asUser(browser, TWO);
  for (const { page } of [one, two]) await page.goto(`/studies/${STUDY}/review`);

  // The first reviewer calls every criterion a tie on all three items.
  for (let i = 1; i <= 3; i++) {
    await expect(one.page.getByTestId('item-label')).toBeVisible();
    await judgeItem(one.page, '2');
    await expect(one.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(one.page.getByTestId('all-done')).toBeVisible();

  // The second agrees everywhere except the overall verdict of their first item.
  await judgeItem(two.page, '2', '1');
  await expect(two.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  // A double press of Enter on the next item must not create two judgments.
  await freshItem(two.page);
  const rows = two.page.locator('[data-testid^="criterion-"]');
  const n = await rows.count();
  for (let i = 0; i < n; i++) await two.page.keyboard.press('2');
  await two.page.keyboard.press('Enter');
  await two.page.keyboard.press('Enter');
  await expect(two.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
  await judgeItem(two.page, '2');
  await expect(two.page.getByTestId('all-done')).toBeVisible();
  await expect(two.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3');

  // The adjudicator sees exactly one disagreement, on overall, with the reviewers anonymised.
  const adj = await asUser(browser, ADJ);
  await adj.page.goto('/');
  await adj.page.getByRole('listitem').filter({ hasText: NAME }).getByRole('link', { name: 'Adjudicate' }).click();
  await expect(adj.page).toHaveURL(new RegExp(`/studies/${STUDY}/adjudicate`));
  const row = adj.page.getByTestId('adjudicate-overall');
  await expect(row).toContainText('Reviewer 1');
  await expect(row).toContainText('Reviewer 2');
  await expect(row).toContainText(/Tie/);
  await expect(adj.page.locator('[data-testid^="adjudicate-"]')).toHaveCount(1);
  await adj.page.keyboard.press('2');
  await adj.page.keyboard.press('Enter');
  await expect(adj.page.getByTestId('adjudication-done')).toBeVisible();

  // The lead exports ground truth: 3 items × their criteria, one adjudicated label.
  const lead = await asUser(browser, 'lead');
  await lead.page.goto(`/studies/${STUDY}`);
  await expect(lead.page.getByTestId('gt-complete')).toContainText('3');
  await expect(lead.page.getByTestId('backlog')).toHaveText('0');
  const [download] = await Promise.all([
    lead.page.waitForEvent('download'),
    lead.page.getByRole('link', { name: 'Ground truth (CSV)' }).click(),
  ]);
  const lines = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
  expect(lines[0]).toEqual(['item', 'criterion', 'label', 'provenance', 'reviewer1_label', 'reviewer2_label', 'adjudicator', 'rationale']);
  const body = lines.slice(1);
  expect(body).toHaveLength(3 * 8);
  expect(body.every((r) => r[2] === 'tie')).toBe(true);
  const adjudicated = body.filter((r) => r[3] === 'adjudicated');
  expect(adjudicated).toHaveLength(1);
  expect(adjudicated[0][1]).toBe('overall');
  expect(adjudicated[0][6]).toBe(ADJ);
  // One reviewer said tie, the other did not.
  expect(adjudicated[0].slice(4, 6).filter((l) => l === 'tie')).toHaveLength(1);

  await Promise.all([one, two, adj, lead].map((s) => s.context.close()));
});

test('annotators cannot reach another reviewer’s assignment or the adjudication queue', async ({ browser }) => {
  const one = await asUser(browser, ONE);
  const two = await asUser(browser, TWO);
  // One of the first reviewer's assignments in the study (submitted or not: either way it is not the other's).
  const theirs = withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
    db
      .prepare('SELECT a.id FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.study_id = ? AND u.username = ? ORDER BY a.id LIMIT 1')
      .pluck()
      .get(STUDY, ONE),
  ) as number;
  expect(theirs).toBeGreaterThan(0);
  expect((await two.page.request.get(`/api/assignments/${theirs}`)).status()).toBe(404);
  expect((await two.page.request.get(`/api/studies/${STUDY}/adjudication`)).status()).toBe(403);
  expect((await two.page.goto(`/studies/${STUDY}/adjudicate`))?.status()).toBe(404);
  await Promise.all([one.context.close(), two.context.close()]);
});
