import { expect, test } from '@playwright/test';
import { signInContext } from './support/session';

// Issue 26, point 5, at 1440×900 where it was seen: the judge-corrected shares of the demo's MRBench study showed
// "83.3 % [53.5 %, 113.2 %]" and "50.0 % [−19.3 %, 119.3 %]", named the dimensions by id, and a p-value printed
// as "0.000". A share's interval is cut at 0–100 % and says so (decision 0034), dimensions go by name, and a
// p-value below 0.001 reads "< 0.001".

// The demo seed makes study 7 the MRBench V3 dev set with MRBench V1's own labels as the run mrbench-v1
// (lib/server/demo/rubric-demo.ts); its settled replies are few per tutor, so the normal intervals overshoot.
const MRBENCH_DEMO = 7;

const PERCENT_INTERVAL = /\[(-?[\d.]+) %, (-?[\d.]+) %\]/g;

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'lead');
});

test('the judge-corrected shares keep every interval within 0–100 %, say where one was cut, and name the dimensions', async ({ page }) => {
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/leaderboard`);
  const table = page.getByRole('table', { name: 'Judge-corrected desired-label shares' });
  await expect(table.getByRole('row')).not.toHaveCount(0);
  const text = await table.innerText();
  const ends = [...text.matchAll(PERCENT_INTERVAL)].flatMap((m) => [Number(m[1]), Number(m[2])]);
  expect(ends.length).toBeGreaterThan(10);
  expect(Math.min(...ends)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...ends)).toBeLessThanOrEqual(100);
  // The Expert tutor's people-only share on the first dimension: 83.3 %, its normal interval cut at 100 % and marked.
  const expert = table.getByRole('row').filter({ hasText: 'Expert' }).filter({ hasText: 'Notices the mistake' });
  await expect(expert.getByRole('cell').nth(3)).toContainText('83.3 %');
  await expect(expert.getByRole('cell').nth(3)).toContainText('[53.5 %, 100.0 %]');
  await expect(expert.getByRole('cell').nth(3).getByTestId('interval-clipped')).toHaveText('cut at 0–100 %');
  // Dimensions by name, as on the review screen, never by id.
  await expect(table).not.toContainText('mistake_identification');
  await expect(table.getByRole('cell', { name: 'Notices the mistake', exact: true }).first()).toBeVisible();
});

test('a p-value below 0.001 reads "< 0.001", not "0.000"', async ({ page }) => {
  await page.goto(`/studies/${MRBENCH_DEMO}/analytics/bias`);
  const length = page.getByTestId('length-row');
  await expect(length.first()).toBeVisible();
  // One of the demo's graders has a length slope with p = 2.6 × 10⁻⁷ (concord report bias --study 7 --json).
  await expect(length.filter({ hasText: '< 0.001' })).not.toHaveCount(0);
  await expect(page.getByText('0.000', { exact: true })).toHaveCount(0);
});
