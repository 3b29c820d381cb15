import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { asUser } from './support/session';

// The demo seed makes study 1 the KMP-style flows, reviewed in full by ann1 and ann2.
const STUDY = 1;

test.describe.configure({ mode: 'serial' });

test('a reviewer works through flows by keyboard, keeps a draft across a reload and undoes a submission', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'ann1');
  await page.goto(`/studies/${STUDY}/review`);
  const flowId = page.getByTestId('flow-id');
  const progress = page.getByRole('progressbar');

  await expect(flowId).toHaveText('kmp-style-001');
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  await page.keyboard.press('v');
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');

  // Flow 002 uses a material it does not provide: the screen says so.
  await expect(flowId).toHaveText('kmp-style-002');
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByText(/uses M5, which this flow does not provide/)).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('t');
  await expect(page.getByRole('button', { name: /Truncate after step 3/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Draft saved.')).toBeVisible();

  await page.reload();
  await expect(flowId).toHaveText('kmp-style-002');
  await expect(page.getByRole('button', { name: /Truncate after step 3/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('step-4')).toContainText('cut');
  await page.keyboard.press('Enter');

  await expect(flowId).toHaveText('kmp-style-003');
  await page.keyboard.press('d');
  await page.keyboard.press('2');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  await page.keyboard.press('Enter');

  await expect(flowId).toHaveText('kmp-style-004');
  await expect(progress).toHaveAttribute('aria-valuenow', '3');
  await page.keyboard.press('u');
  await expect(flowId).toHaveText('kmp-style-003');
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  await expect(page.getByRole('button', { name: /Discard/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(flowId).toHaveText('kmp-style-004');
  await expect(progress).toHaveAttribute('aria-valuenow', '3');
  await context.close();
});

test('the lead sees the decisions and downloads exports with the right content', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${STUDY}`);
  await expect(page.getByTestId('count-verified')).toContainText('1');
  await expect(page.getByTestId('count-truncated')).toContainText('1');
  await expect(page.getByTestId('count-discarded')).toContainText('1');
  await expect(page.getByTestId('reviewer-table')).toContainText('3 / 6');

  const [flows] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Verified flows (JSONL)' }).click()]);
  const lines = fs.readFileSync((await flows.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(lines.map((f) => f.id)).toEqual(['kmp-style-001', 'kmp-style-002']);
  expect(lines[1].steps).toHaveLength(3);
  expect(lines[1].review).toMatchObject({ decision: 'truncate', afterStep: 3, reviewers: ['ann1'] });

  const [decisions] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Decisions (CSV)' }).click()]);
  const rows = fs.readFileSync((await decisions.path())!, 'utf8').trim().split(/\r?\n/);
  expect(rows).toHaveLength(4);
  expect(rows[3]).toMatch(/^kmp-style-003,ann1,discard,,illogical_sequence,/);
  await context.close();
});
