import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { signInContext } from './support/session';

// Issue 26, point 3: a rubric study's page has the pairwise page's shape — progress, links to every dashboard, the
// reviewers with their payout — and both link the Bias dashboard.

const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
const DASHBOARDS = ['Agreement', 'Judge alignment', 'Leaderboard', 'Hybrid review plan', 'Bias', 'Judge runs'];
let rubric = 0;
let pairwise = 0;

test.beforeAll(() => {
  rubric = makeReportsRubricStudy();
  concord(['user', 'add', 'uxsp1', '--role', 'annotator'], 'ux-study-page-2026');
  pairwise = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX study page', '--reviewers', '1', '--json'])).id;
  concord(['import', 'items', '--study', String(pairwise), PAIRS]);
  concord(['study', 'members', String(pairwise), 'uxsp1']);
  concord(['study', 'open', String(pairwise)]);
});

async function expectSameShape(page: Page, study: number) {
  await page.goto(`/studies/${study}`);
  const nav = page.getByRole('navigation', { name: 'Analytics' });
  for (const name of DASHBOARDS) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Bias', exact: true })).toHaveAttribute('href', `/studies/${study}/analytics/bias`);
  await expect(page.getByRole('region', { name: 'Progress' }).getByRole('progressbar')).toBeVisible();
  const table = page.getByRole('region', { name: 'Reviewers' }).getByTestId('reviewer-table');
  await expect(table.getByRole('columnheader', { name: 'Payout' })).toBeVisible();
  return table;
}

test('a rubric study page shows progress, its dashboards and the reviewers with payout, as the pairwise page does', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'lead');
  const table = await expectSameShape(page, rubric);
  // The fixture's two reviewers (the demo's ann1 and ann2) each labelled the study's replies.
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expectSameShape(page, pairwise);
});
