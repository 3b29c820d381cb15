import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { asUser } from './support/session';
import { tempDir } from '../test/temp-dir';

// Issue 26, point 8: `i` (show what the focused row means) works on both adjudication screens, so it is named in
// the rubric adjudication's `?` list and in the pairwise adjudication's footer, at 1440×900 where it was missing.

const PASSWORD = 'ux-details-2026';
const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');

test('the rubric adjudication lists i among its shortcuts', async ({ browser }) => {
  const study = makeReportsRubricStudy();
  const { page, context } = await asUser(browser, 'lead');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/studies/${study}/adjudicate`);
  await expect(page.getByRole('region', { name: 'Settle' })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const row = help.locator('dl > div').filter({ has: page.locator('dt', { hasText: 'what the focused dimension means' }) });
  await expect(row.locator('dd')).toHaveText('i');
  await context.close();
});

/** Every criterion of the item on screen gets `key`, then it is submitted. */
async function judge(page: Page, key: string) {
  const overall = page.getByTestId('criterion-overall');
  await expect(overall.getByRole('radio')).toHaveCount(3);
  const n = await page.locator('[data-testid^="criterion-"]').count();
  for (let i = 0; i < n; i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();
}

test('the pairwise adjudication footer names i', async ({ browser }) => {
  const dir = tempDir('concord-ux-details-');
  const one = path.join(dir, 'one.jsonl');
  fs.writeFileSync(one, fs.readFileSync(PAIRS, 'utf8').split('\n')[0] + '\n');
  for (const u of ['uxd1', 'uxd2']) concord(['user', 'add', u, '--role', 'annotator'], PASSWORD);
  const study = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX details key', '--reviewers', '2', '--json'])).id;
  concord(['import', 'items', '--study', String(study), one]);
  concord(['study', 'members', String(study), 'uxd1', 'uxd2']);
  concord(['study', 'open', String(study)]);
  // The two reviewers disagree on everything, whatever order each was shown the replies in (a preference against a
  // tie: "1" and "3" name screen positions, which agree when the two screens are swapped): adjudication.
  for (const [u, key] of [
    ['uxd1', '1'],
    ['uxd2', '2'],
  ]) {
    const { page, context } = await asUser(browser, u, PASSWORD);
    await page.goto(`/studies/${study}/review`);
    await judge(page, key);
    await context.close();
  }
  const { page, context } = await asUser(browser, 'lead');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/studies/${study}/adjudicate`);
  const legend = page.getByRole('region', { name: 'Settle' }).getByTestId('key-legend');
  await expect(legend).toBeVisible();
  await expect(legend).toContainText('i details');
  await context.close();
});
