import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { asUser } from './support/session';

// The demo seed makes study 3 the KMP-style pairwise items (3 items), judged by ann1 and ann2, adjudicated by adj.
const STUDY = 3;

test.describe.configure({ mode: 'serial' });

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
  const one = await asUser(browser, 'ann1');
  const two = await asUser(browser, 'ann2');
  for (const { page } of [one, two]) await page.goto(`/studies/${STUDY}/review`);

  // ann1 calls every criterion a tie on all three items.
  for (let i = 1; i <= 3; i++) {
    await expect(one.page.getByTestId('item-label')).toBeVisible();
    await judgeItem(one.page, '2');
    await expect(one.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(one.page.getByTestId('all-done')).toBeVisible();

  // ann2 agrees everywhere except the overall verdict of their first item.
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
  const adj = await asUser(browser, 'adj');
  await adj.page.goto('/');
  await adj.page.getByRole('listitem').filter({ hasText: 'KMP-style pairwise' }).getByRole('link', { name: 'Adjudicate' }).click();
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
  expect(adjudicated[0][6]).toBe('adj');
  // One reviewer said tie, the other did not.
  expect(adjudicated[0].slice(4, 6).filter((l) => l === 'tie')).toHaveLength(1);

  await Promise.all([one, two, adj, lead].map((s) => s.context.close()));
});

test('annotators cannot reach another reviewer’s assignment or the adjudication queue', async ({ browser }) => {
  const one = await asUser(browser, 'ann1');
  const two = await asUser(browser, 'ann2');
  const theirs = (await (await one.page.request.get(`/api/studies/4/queue`)).json()).currentId as number;
  expect(theirs).toBeGreaterThan(0);
  expect((await two.page.request.get(`/api/assignments/${theirs}`)).status()).toBe(404);
  expect((await two.page.request.get(`/api/studies/${STUDY}/adjudication`)).status()).toBe(403);
  expect((await two.page.goto(`/studies/${STUDY}/adjudicate`))?.status()).toBe(404);
  await Promise.all([one.context.close(), two.context.close()]);
});
