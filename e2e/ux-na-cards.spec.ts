import { expect, test } from '@playwright/test';
import { signInContext } from './support/session';

// Issue 26, point 6, at 1440×900 where the newcomer saw them: the demo's dashboards said n/a down whole columns.
// Where the demo cannot carry the data (PandaLM has one model, one overall criterion, every item labelled by people
// and judges that saw one reply order; the MRBench seed's labels never disagree with mrbench-v1 on the settled
// replies), the card says in one line what would make the figure appear. The certification card says how its two
// questions differ.

const PANDALM_DEMO = 5;
const MRBENCH_DEMO = 7;

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'lead');
});

test('the PandaLM leaderboard has no column of n/a: the missing levels, correction and rank agreement each say why in one line', async ({
  page,
}) => {
  await page.goto(`/studies/${PANDALM_DEMO}/analytics/leaderboard`);
  const board = page.getByTestId('leaderboard-table');
  await expect(board.getByTestId('leaderboard-row')).toHaveCount(3);
  await expect(board.getByRole('columnheader', { name: 'General-Level Acc' })).toHaveCount(0);
  await expect(board.getByRole('columnheader', { name: 'Overall Acc', exact: true })).toHaveCount(0);
  await expect(board).not.toContainText('no labels');
  await expect(board).not.toContainText('nothing defined to average');
  await expect(page.getByTestId('no-general-level')).toBeVisible();
  await expect(page.getByTestId('corrected-none')).toContainText('people labelled every item');
  await expect(page.getByTestId('corrected-card').getByRole('table')).toHaveCount(0);
  await expect(page.getByTestId('rank-none')).toContainText('one (pandalm-response1)');
  await expect(page.getByTestId('rank-card').getByRole('table')).toHaveCount(0);
});

test('PandaLM judge position bias says what would make it appear instead of a table of n/a', async ({ page }) => {
  await page.goto(`/studies/${PANDALM_DEMO}/analytics/bias`);
  await expect(page.getByTestId('judge-position-none')).toContainText('both reply orders');
  await expect(page.getByTestId('judge-position-table')).toHaveCount(0);
});

test('MRBench leniency says there is no disagreement rather than "no labels" where labels exist', async ({ page }) => {
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/bias`);
  const table = page.getByTestId('leniency-table');
  await expect(table.getByTestId('leniency-row')).toHaveCount(4);
  await expect(table).not.toContainText('no labels');
  await expect(table.getByRole('cell', { name: 'no disagreement' })).toHaveCount(4);
  await expect(page.getByTestId('leniency-no-disagreement')).toBeVisible();
});

test('the certification card says how "keep labelling" and "can replace an annotator" answer different questions', async ({ page }) => {
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/alignment?judge=mrbench-v1`);
  await expect(page.getByTestId('certify-decision')).toHaveText('Keep labelling');
  const questions = page.getByTestId('certify-questions');
  await expect(questions).toContainText('Two different questions');
  await expect(questions).toContainText('alternative annotator test');
  // Read together with the card: the line sits just above it.
  const [line, card] = await Promise.all([questions.boundingBox(), page.getByTestId('certify-card').boundingBox()]);
  expect(card!.y - (line!.y + line!.height)).toBeLessThan(40);
});
