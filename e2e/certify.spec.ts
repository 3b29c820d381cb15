import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

// The demo seed makes study 5 the PandaLM test set: 999 items, three annotators on every item, judged by
// gpt-3.5-turbo (25 verdicts unreadable) and pandalm-7b; ground truth is the majority label.
const STUDY = 5;

async function download(page: Page, link: ReturnType<Page['getByRole']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}

test('a lead certifies a judge on the alignment dashboard and reads the biases of the PandaLM study', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');

  // Certification of gpt-3.5-turbo against the default 90 % target: refuted, with the alt-test beside it.
  await page.goto(`/studies/${STUDY}/analytics/alignment?judge=gpt-3.5-turbo`);
  const card = page.getByTestId('certify-card');
  // The lead chooses the criterion; PandaLM has only the overall verdict.
  await expect(card.getByTestId('certify-criterion')).toHaveValue('overall');
  await expect(card.getByTestId('certify-criterion').getByRole('option')).toHaveText(['Overall']);
  await expect(card.getByTestId('certify-decision')).toHaveText('Refuted');
  await expect(card.getByTestId('certify-bounds')).toContainText('alignment between 69.8 % and 76.6 %');
  await expect(card.getByRole('figure')).toContainText('After 974 items');
  await expect(card.getByTestId('alt-test-verdict')).toContainText('the judge cannot replace an annotator');
  await expect(card.getByTestId('alt-test').getByRole('row')).toHaveCount(1 + 3);
  // The table is the CSV's columns without those it repeats on every row (judge, criterion, ε, ω, ρ).
  await expect(card.getByTestId('alt-test').getByRole('columnheader')).toHaveText([
    'Held-out reviewer',
    'Items',
    'ρ judge',
    'ρ reviewer',
    'p',
    'p (BY)',
    'Judge wins',
  ]);
  await expect(card.getByTestId('alt-test').getByRole('row').nth(1).getByRole('cell').last()).toHaveText(/^(yes|no|not tested)$/);
  // A lower target inside the bounds asks for more labels.
  await card.getByLabel('Target alignment').fill('0.75');
  await card.getByLabel('Target alignment').press('Enter');
  await expect(card.getByTestId('certify-decision')).toHaveText('Keep labelling');
  await expect(card.getByTestId('certify-more')).toContainText('more items');
  const path = await download(page, card.getByRole('link', { name: 'CSV path' }));
  expect(path.name).toBe('study-5-certify-gpt-3.5-turbo-overall-path.csv');
  expect(path.text.trimEnd().split('\r\n')).toHaveLength(1 + 974);

  // The JSON of the report is exactly what the command line prints.
  const json = await (await page.request.get(`/api/studies/${STUDY}/reports/certify?judge=pandalm-7b&target=0.6`)).json();
  expect(json).toEqual(
    JSON.parse(concord(['report', 'certify', '--study', String(STUDY), '--judge', 'pandalm-7b', '--target', '0.6', '--json'])),
  );

  // Bias tab: no verdict in both orders and no stored display order on imported data; length bias for every grader.
  await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Bias' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/analytics/bias$`));
  // Neither run judged both orders: one line says what would make position bias appear (issue 26, point 6).
  await expect(page.getByTestId('judge-position-none')).toContainText('both reply orders');
  await expect(page.getByTestId('judge-position-row')).toHaveCount(0);
  await expect(page.getByTestId('human-position-empty')).toContainText('no display order stored');
  await expect(page.getByTestId('length-row')).toHaveCount(3);
  await expect(page.getByTestId('length-row').first().getByTestId('length-slope')).toHaveText('0.182');
  const length = await download(page, page.getByRole('region', { name: 'Length bias' }).getByRole('link', { name: 'CSV' }));
  expect(length.name).toBe('study-5-bias-length.csv');
  expect(length.text.trimEnd().split('\r\n')).toHaveLength(1 + 3 * 5);

  // Leaderboard: every PandaLM item is labelled, so there is nothing to correct; one model, nothing to rank: each card
  // says so in one line instead of a table of n/a (issue 26, point 6).
  await page.goto(`/studies/${STUDY}/analytics/leaderboard`);
  await expect(page.getByTestId('corrected-none')).toContainText('people labelled every item');
  await expect(page.getByTestId('rank-none')).toContainText('one (pandalm-response1)');
  await expect(page.getByTestId('rank-row')).toHaveCount(0);
  await context.close();
});

test('an annotator gets 404 for the Bias tab and 403 from the certify and bias reports', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'ann1');
  expect((await page.goto(`/studies/${STUDY}/analytics/bias`))?.status()).toBe(404);
  for (const url of [`/api/studies/${STUDY}/reports/certify?judge=gpt-3.5-turbo`, `/api/studies/${STUDY}/reports/bias`]) {
    expect((await page.request.get(url)).status(), url).toBe(403);
  }
  await context.close();
});
