import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { asUser } from './support/session';

/*
 * Certifying a judge on a rubric study, and its Bias tab. The study is the one of e2e/rubric-dashboards.spec.ts
 * (e2e/support/make-rubric-study.ts): mistake identification, sample 1 — ground truth Y Y N Y S N on the six
 * settled replies, the judge "gpt" Y S Y Y Y N: 3 of 6 strict, 5 of 6 lenient; "keeps the answer back" 4 of 5.
 * Every reply of a tutor has the same text, so the length bias has no slope to fit.
 * Run: npx next build, then E2E_PORT=3642 npx playwright test e2e/rubric-certify.spec.ts
 */
let study: number;

test.beforeAll(() => {
  study = makeReportsRubricStudy();
});

async function download(page: Page, link: ReturnType<Page['getByRole']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

test('a lead certifies a rubric judge per dimension, strictly and leniently, and reads its leniency and length bias', async ({
  browser,
}) => {
  const { page, context } = await asUser(browser, 'lead');

  await page.goto(`/studies/${study}/analytics/alignment`);
  const card = page.getByTestId('certify-card');
  await expect(card.getByTestId('certify-criterion').getByRole('option')).toHaveText(['Notices the mistake', 'Keeps the answer back']);
  await expect(card).toContainText('3 of 6 ground-truth labels matched');
  // Six observations cannot decide anything at 95 %: keep labelling, with the path drawn.
  await expect(card.getByTestId('certify-decision')).toHaveText('Keep labelling');
  await expect(card.getByRole('figure')).toContainText('After 6 items');
  await card.getByTestId('certify-lenient').check();
  await expect(card).toContainText('(labels folded leniently)');
  await expect(card).toContainText('5 of 6 ground-truth labels matched');
  // A dimension without a lenient map offers no folding.
  await card.getByTestId('certify-criterion').selectOption('leak');
  await expect(card).toContainText('4 of 5 ground-truth labels matched');
  await expect(card.getByTestId('certify-lenient')).toHaveCount(0);
  const decision = await download(page, card.getByRole('link', { name: 'CSV decision' }));
  expect(decision.name).toBe(`study-${study}-rubric-certify-gpt-leak-decision.csv`);
  expect(parseCsv(decision.text)[1].slice(0, 4)).toEqual(['gpt', '1', 'false', 'leak']);
  // The route's JSON is exactly what the command line prints.
  const json = await (await page.request.get(`/api/studies/${study}/reports/rubric-certify?judge=gpt&lenient=true`)).json();
  expect(json).toEqual(JSON.parse(concord(['report', 'certify', '--study', String(study), '--judge', 'gpt', '--lenient', '--json'])));

  // Bias: "Yes" from the judge on 4 of the 6 replies, from people on 3; only the judge on 2, only people on 1.
  await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Bias' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${study}/analytics/bias$`));
  const mi = page.getByTestId('leniency-row').filter({ hasText: 'Notices the mistake' });
  await expect(page.getByTestId('leniency-row')).toHaveCount(2);
  await expect(mi.getByRole('cell')).toHaveText([/gpt/, '6', '66.7 %', '50.0 %', '2', '1', /66\.7 %/, /1\.000/]);
  await expect(page.getByRole('figure', { name: /Share of the disagreements/ })).toBeVisible();
  // The judge's second sample says Yes on every reply: generous on the 3 replies people did not call Yes.
  await page.getByLabel('Judge sample').selectOption('2');
  await expect(page).toHaveURL(/sample=2/);
  await expect(mi.getByRole('cell').nth(2)).toHaveText('100.0 %');
  await expect(mi.getByRole('cell').nth(4)).toHaveText('3');
  await expect(mi.getByRole('cell').nth(5)).toHaveText('0');
  await page.getByLabel('Judge sample').selectOption('1');
  await expect(mi.getByRole('cell').nth(4)).toHaveText('2');
  // Leniently "To some extent" counts: people 4, the judge 5; only the judge on 1, only people on none.
  await page.getByTestId('bias-lenient').check();
  await expect(page).toHaveURL(/lenient=true/);
  await expect(mi.getByRole('cell').nth(4)).toHaveText('1');
  await expect(mi.getByRole('cell').nth(5)).toHaveText('0');
  // Ground truth and the judge on both dimensions; all replies of a tutor are as long, so no slope.
  await expect(page.getByTestId('length-row')).toHaveCount(4);
  await expect(page.getByTestId('length-row').first().getByTestId('length-slope')).toContainText('n/a');
  const leniency = await download(page, page.getByRole('region', { name: 'Judge leniency' }).getByRole('link', { name: 'CSV' }));
  expect(leniency.name).toBe(`study-${study}-rubric-bias-leniency.csv`);
  const rows = parseCsv(leniency.text);
  expect(rows).toHaveLength(3);
  expect(rows[1].slice(0, 4)).toEqual(['gpt', '1', 'true', 'mistake_identification']);
  await context.close();
});

test('an annotator gets 404 for the rubric Bias tab and 403 from the rubric certify and bias reports', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'ann1');
  expect((await page.goto(`/studies/${study}/analytics/bias`))?.status()).toBe(404);
  for (const url of [`/api/studies/${study}/reports/rubric-certify?judge=gpt`, `/api/studies/${study}/reports/rubric-bias`]) {
    expect((await page.request.get(url)).status(), url).toBe(403);
  }
  await context.close();
});

// The demo seed makes study 7 the MRBench V3 dev set, with MRBench V1's own labels as the run mrbench-v1
// (lib/server/demo/rubric-demo.ts); ground truth is settled on the seed's slice only.
const MRBENCH_DEMO = 7;

test("the demo's MRBench study certifies mrbench-v1 while people label: keep labelling, as the command line says", async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/alignment?judge=mrbench-v1`);
  await expect(page.getByRole('link', { name: '← Back to MRBench V3 dev set' })).toBeVisible();
  const card = page.getByTestId('certify-card');
  const cli = JSON.parse(
    concord([
      'report',
      'certify',
      '--study',
      String(MRBENCH_DEMO),
      '--judge',
      'mrbench-v1',
      '--criterion',
      'mistake_identification',
      '--json',
    ]),
  );
  expect(cli.decision).toBe('keep_labelling');
  await card.getByTestId('certify-criterion').selectOption('mistake_identification');
  await expect(card).toContainText(`${cli.agree} of ${cli.n} ground-truth labels matched`);
  await expect(card.getByTestId('certify-decision')).toHaveText('Keep labelling');
  await expect(card.getByRole('figure')).toContainText(`After ${cli.n} items`);

  // Its corrected shares rest on a few settled replies per tutor, and the table says so under each value.
  const board = JSON.parse(concord(['report', 'leaderboard', '--study', String(MRBENCH_DEMO), '--bootstrap', '0', '--json']));
  const cells = board.corrected.find((r: { judge: string }) => r.judge === 'mrbench-v1').cells as {
    lenient: boolean;
    caution: string | null;
  }[];
  const strict = cells.filter((c) => !c.lenient);
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/leaderboard`);
  const table = page.getByRole('table', { name: 'Judge-corrected desired-label shares' });
  await expect(table.getByTestId('corrected-caution').filter({ hasText: 'zero-width interval' })).toHaveCount(
    strict.filter((c) => c.caution === 'zero_width_interval').length,
  );
  await expect(table.getByTestId('corrected-caution').filter({ hasText: 'fewer than 30 labelled items' })).toHaveCount(
    strict.filter((c) => c.caution === 'few_labelled_items').length,
  );
  expect(strict.some((c) => c.caution === 'zero_width_interval')).toBe(true);
  // The people-only and judge-only intervals of no width (all labels alike) are flagged too.
  type Interval = { lower: number | null; upper: number | null };
  const flat = (i: Interval) => i.lower !== null && i.upper !== null && i.upper - i.lower <= 1e-12;
  const others = strict.flatMap((c) => {
    const { humanOnly, judgeOnly } = (c as unknown as { intervals: Record<string, Interval> }).intervals;
    return [humanOnly, judgeOnly].filter(flat);
  });
  expect(others.length).toBeGreaterThan(0);
  await expect(table.getByTestId('zero-width')).toHaveCount(others.length);
  await context.close();
});
