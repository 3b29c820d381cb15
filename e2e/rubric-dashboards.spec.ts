import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { asUser } from './support/session';

/*
 * The dashboards of a rubric study. The study (e2e/support/make-rubric-study.ts) is the one of the service tests:
 * eight replies by tutors t1 and t2, the demo's ann1 and ann2 reviewing each, a judge run "gpt" with two samples.
 * Mistake identification, sample 1: ground truth Y Y N Y S N on the six settled replies, the judge Y S Y Y Y N —
 * 3 of 6 strict, 5 of 6 lenient; "keeps the answer back": 4 of 5 (sample 1), 4 of 6 (sample 2).
 * Run: npx next build, then E2E_PORT=3640 npx playwright test e2e/rubric-dashboards.spec.ts
 */
let study: number;

test.beforeAll(() => {
  study = makeReportsRubricStudy();
});

async function download(page: Page, link: ReturnType<Page['getByRole']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

test('a lead reads the rubric agreement, alignment, leaderboard and hybrid plan, and downloads them', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  const tab = (name: string) => page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name });

  // Agreement per dimension (i7's second review is pending, so 7 replies carry two labels).
  await page.goto(`/studies/${study}/analytics/agreement`);
  // The header names the ground-truth rule the study chose, as a pairwise study's does.
  await expect(page.getByText(/ · ground truth: agreed, else adjudicated$/)).toBeVisible();
  const agreement = page.getByTestId('criteria-table');
  await expect(agreement.getByRole('row', { name: /Notices the mistake/ })).toContainText('71.4 %');
  await expect(agreement.getByRole('row', { name: /Notices the mistake/ })).toContainText('No < To some extent < Yes');
  const criteria = await download(page, page.getByRole('region', { name: 'Agreement per dimension' }).getByRole('link', { name: 'CSV' }));
  expect(criteria.name).toBe(`study-${study}-rubric-agreement-criteria.csv`);
  const lines = parseCsv(criteria.text);
  expect(lines[0].slice(0, 5)).toEqual(['dimension', 'name', 'labels', 'items', 'ratings']);
  expect(lines.slice(1).map((l) => l.slice(0, 5))).toEqual([
    ['mistake_identification', 'Notices the mistake', 'No;To some extent;Yes', '7', '15'],
    ['leak', 'Keeps the answer back', 'REJECT;OK', '7', '15'],
  ]);
  // The route's JSON is exactly what the command line prints.
  const json = await (await page.request.get(`/api/studies/${study}/reports/rubric-agreement?bootstrap=0`)).json();
  expect(json).toEqual(JSON.parse(concord(['report', 'agreement', '--study', String(study), '--bootstrap', '0', '--json'])));

  // Alignment: strict, then lenient; then the judge's second sample.
  await tab('Alignment').click();
  const alignment = page.getByTestId('rubric-alignment-table');
  await expect(alignment.getByRole('row', { name: /Notices the mistake/ })).toContainText('50.0 %');
  await expect(alignment.getByRole('row', { name: /Keeps the answer back/ })).toContainText('80.0 %');
  await page.getByTestId('scoring-select').selectOption('lenient');
  await expect(alignment.getByRole('row', { name: /Notices the mistake/ })).toContainText('83.3 %');
  await expect(alignment.getByRole('row', { name: /Keeps the answer back/ })).toContainText('no lenient map');
  await expect(page.getByRole('table', { name: 'Ground truth by Judge' })).toBeVisible();
  await page.getByTestId('scoring-select').selectOption('strict');
  await page.getByLabel('Sample').selectOption('2');
  await expect(alignment.getByRole('row', { name: /Keeps the answer back/ })).toContainText('66.7 %');
  await expect(page).toHaveURL(/sample=2/);
  await expect(page.getByTestId('rubric-tutor-table').getByRole('row', { name: /t1/ })).toBeVisible();
  const summaries = await download(page, page.getByRole('region', { name: 'Per dimension' }).getByRole('link', { name: 'CSV' }));
  expect(parseCsv(summaries.text)[0].slice(0, 7)).toEqual(['judge', 'sample', 'tutor', 'dimension', 'scoring', 'n', 'agree']);

  // Leaderboard: t2's share of "Yes" on mistake identification is 1 of 3 strictly, 2 of 3 leniently.
  await tab('Leaderboard').click();
  const board = page.getByTestId('rubric-leaderboard-table');
  // Cells: tutor, grader, mistake identification, keeps the answer back.
  const t2mi = board
    .getByRole('row', { name: /t2 ground truth/ })
    .getByRole('cell')
    .nth(2);
  await expect(t2mi).toContainText('33.3 %');
  await page.getByLabel('Scoring').selectOption('lenient');
  await expect(t2mi).toContainText('66.7 %');

  // Hybrid plan (mistake identification, strict): the judge's one "No" is right, so "No" is accepted and its "To some
  // extent" and "Yes" go to people; of the replies nobody reviewed, i10 (judged "Yes") is sent, i9 ("No") is not.
  await tab('Hybrid plan').click();
  const plan = page.getByTestId('hybrid-plans-table');
  await expect(plan.getByRole('row', { name: /All tutors/ })).toContainText('6');
  await expect(plan.getByRole('row', { name: /^t1/ })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Annotator One' }).check();
  await page.getByRole('button', { name: 'Open review queue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued 1 repl(ies) (1 routed, 0 random checks): ann1 1.' })).toBeVisible();

  // Bias: a rubric study's tab has the judge's leniency and the length bias (e2e/rubric-certify.spec.ts reads them).
  await tab('Bias').click();
  await expect(page.getByRole('region', { name: 'Judge leniency' })).toBeVisible();
  await context.close();
});
