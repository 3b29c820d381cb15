import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { parseCsv } from '../test/csv';
import { asUser } from './support/session';

// The demo seed makes study 5 the PandaLM test set: 999 items labelled by three annotators, judged by gpt-3.5-turbo
// (25 verdicts unreadable) and pandalm-7b; ground truth is the majority label. Study 1 is a flow review.
const STUDY = 5;
const DASHBOARDS = ['agreement', 'alignment', 'leaderboard', 'hybrid'];

async function download(page: Page, link: ReturnType<Page['getByRole']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

test('a lead reads agreement, alignment, leaderboard and hybrid plan of the PandaLM study, and downloads them', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  const tab = (name: string) => page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name });

  // Agreement: Cohen's κ of the three annotator pairs, shown at once; the bootstrap starts by itself on a study this small.
  await page.goto(`/studies/${STUDY}/analytics/agreement`);
  await expect(page.getByTestId('pairs-table').getByTestId('pair-kappa')).toHaveText(['0.852', '0.879', '0.862']);
  await expect(page.getByTestId('intervals-status')).toContainText('1,000 replicates');
  await expect(page.getByTestId('pairs-table').getByTestId('pair-row').first()).toContainText('[0.823, 0.880]');

  const pairs = await download(
    page,
    page.getByRole('region', { name: 'Cohen’s κ per pair of reviewers' }).getByRole('link', { name: 'CSV' }),
  );
  expect(pairs.name).toBe('study-5-agreement-pairs.csv');
  const pairLines = parseCsv(pairs.text);
  expect(pairLines[0].slice(0, 5)).toEqual(['criterion', 'annotator_1', 'annotator_2', 'items', 'percent_agreement']);
  expect(pairLines).toHaveLength(1 + 3);
  expect(pairLines[1].slice(0, 4)).toEqual(['overall', 'pandalm-annotator1', 'pandalm-annotator2', '999']);

  // The JSON of the report is exactly what the command line prints.
  const json = await (await page.request.get(`/api/studies/${STUDY}/reports/agreement?bootstrap=0`)).json();
  expect(json).toEqual(JSON.parse(concord(['report', 'agreement', '--study', String(STUDY), '--bootstrap', '0', '--json'])));

  // Alignment: the newest judge run with verdicts by default (pandalm-7b, imported last), then the other one.
  await tab('Alignment').click();
  await expect(page.getByTestId('alignment-rate')).toHaveText('66.8 %');
  await page.getByLabel('Judge run').selectOption('gpt-3.5-turbo');
  await expect(page.getByTestId('alignment-rate')).toHaveText('71.6 %');
  await expect(page.getByTestId('alignment-facts')).toContainText('Unreadable verdicts25');
  await expect(page).toHaveURL(/judge=gpt-3.5-turbo/);

  // Leaderboard: the tie policy is always on the table, and switching it changes the win rates.
  await tab('Leaderboard').click();
  const label = page.getByTestId('tie-policy-label');
  const groundTruth = page.getByTestId('leaderboard-row').filter({ hasText: 'Ground truth' }).getByTestId('overall-judgement');
  await expect(label).toHaveText('Tie policy: ties count ½');
  await expect(groundTruth).toHaveText('47.5 %');
  await page.locator('label').filter({ hasText: 'Strict wins' }).click();
  await expect(page.getByRole('radio', { name: 'Strict wins' })).toBeChecked();
  await expect(label).toContainText('strict wins');
  await expect(groundTruth).toHaveText('42.2 %');
  const board = await download(page, page.getByRole('region', { name: 'Leaderboard', exact: true }).getByRole('link', { name: 'CSV' }));
  expect(board.name).toBe('study-5-leaderboard-ties-non_win-leaderboard.csv');
  const boardLines = parseCsv(board.text);
  expect(boardLines[0].slice(0, 5)).toEqual(['tie_policy', 'model', 'grader', 'items', 'overall_judgement']);
  expect(boardLines).toHaveLength(1 + 3); // one model, graded by the ground truth and two judge runs
  expect(boardLines.slice(1).every((l) => l[0] === 'non_win' && l[1] === 'pandalm-response1')).toBe(true);

  // Hybrid plan for gpt-3.5-turbo on `overall`, target 95 %.
  await page.goto(`/studies/${STUDY}/analytics/hybrid?judge=gpt-3.5-turbo`);
  await expect(page.getByTestId('acc-hybrid')).toHaveText('88.1 %');
  await expect(page.getByTestId('classes-table')).toContainText('Accept');
  await expect(page.getByTestId('extra-reviews')).toHaveText('280');
  await expect(page.locator('#hybrid-queue-slot')).toHaveCount(1);

  // A study that is not pairwise explains itself instead of failing.
  await page.goto('/studies/1/analytics/agreement');
  await expect(page.getByText('These dashboards are for pairwise and rubric studies')).toBeVisible();
  await context.close();
});

test('an annotator gets 404 for every dashboard and 403 from the report route', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'ann1');
  for (const name of DASHBOARDS) {
    const res = await page.goto(`/studies/${STUDY}/analytics/${name}`);
    expect(res?.status(), name).toBe(404);
  }
  expect((await page.goto(`/studies/${STUDY}/analytics`))?.status()).toBe(404);
  for (const url of [
    `/api/studies/${STUDY}/reports/agreement`,
    `/api/studies/${STUDY}/reports/alignment?judge=gpt-3.5-turbo`,
    `/api/studies/${STUDY}/reports/leaderboard?format=csv&table=leaderboard`,
    `/api/studies/${STUDY}/reports/hybrid?judge=gpt-3.5-turbo`,
  ]) {
    const res = await page.request.get(url);
    expect(res.status(), url).toBe(403);
    expect(await res.text()).not.toContain('pandalm-annotator');
  }
  await context.close();
});
