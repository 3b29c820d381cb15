import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Dashboards a lead can read on a large catalog: criteria with nothing to measure folded away, one percent agreement
 * on the study page and the dashboard, and a chart over time only when there is a time series.
 */

const PANDALM = 5; // the demo seed's PandaLM test set: three annotators on every item
const firstPercent = (text: string | null) => Number(/(\d+(?:\.\d+)?) %/.exec(text ?? '')?.[1]);

test('the study page and the agreement dashboard show the same percent agreement', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${PANDALM}`);
  const row = page.getByTestId('agreement-table').getByRole('row').filter({ hasText: 'Overall' });
  const onStudyPage = firstPercent(await row.getByTestId('percent-agreement').textContent());
  const allAgree = firstPercent(await row.getByRole('cell').nth(3).textContent());
  await expect(page.getByText('the same figure as on the Agreement dashboard')).toBeVisible();

  await page.goto(`/studies/${PANDALM}/analytics/agreement`);
  const dashRow = page.getByTestId('criteria-table').getByRole('row').filter({ hasText: 'Overall' });
  const onDashboard = firstPercent(await dashRow.getByRole('cell').nth(3).textContent());
  expect(onStudyPage).toBeGreaterThan(0);
  expect(onStudyPage).toBe(onDashboard);
  // With three annotators the share of unanimous items is a different, lower figure, and says so.
  expect(allAgree).toBeLessThan(onStudyPage);
  await context.close();
});

test('criteria nobody labelled are folded away on the agreement and alignment dashboards', async ({ browser }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-fold-'));
  const items = ['fold-1', 'fold-2', 'fold-3'].map((id) => ({
    id,
    problem: `What is 9 × 8? (${id})`,
    history: [{ role: 'student', text: 'Is it 81?' }],
    a: { source: 'model-f', text: 'Think of 9 × 8 as 10 × 8 − 8.' },
    b: { source: 'reference', text: 'What is 8 × 8?' },
  }));
  // Two of the default catalog's criteria are labelled (overall and clarity); every other criterion has nothing.
  const prior = items.flatMap((it, i) =>
    ['p1', 'p2'].map((annotator, k) => ({
      item: it.id,
      annotator,
      labels: { overall: i === 2 && k === 1 ? 'tie' : 'win', clarity: 'win' },
    })),
  );
  const verdicts = items.map((it) => ({ item: it.id, judge: 'judge-f', labels: { overall: 'win', clarity: 'tie' }, swapped: false }));
  const write = (name: string, rows: object[]) => {
    fs.writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
    return path.join(dir, name);
  };
  const studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Folding check', '--reviewers', '2', '--json']),
  ).id;
  concord(['import', 'items', '--study', String(studyId), write('items.jsonl', items)]);
  concord(['import', 'annotations', '--study', String(studyId), write('prior.jsonl', prior)]);
  concord(['study', 'members', String(studyId), '--adjudicator', 'adj']);
  concord(['study', 'open', String(studyId)]);
  concord(['import', 'judge', '--study', String(studyId), write('judge.jsonl', verdicts)]);
  fs.rmSync(dir, { recursive: true, force: true });

  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/analytics/agreement`);
  const table = page.getByTestId('criteria-table');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').first()).toContainText('Clarity');
  const folded = page.getByTestId('folded-empty');
  await expect(folded).toContainText(/\d+ criteria with nothing to measure yet/);
  await folded.getByText(/criteria with nothing to measure yet/).click();
  await expect(folded).toContainText('Mathematical correctness');

  await page.goto(`/studies/${studyId}/analytics/alignment`);
  const byCriterion = page.getByTestId('criterion-table');
  await expect(byCriterion.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByTestId('folded-empty').first()).toContainText(/criteria with nothing to measure yet/);
  await context.close();
});

test('submissions on one day are said in words; the chart over time needs two or more days', async ({ browser }) => {
  const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
  const studyId = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'One day', '--seed', '4', '--json'])).id;
  concord(['import', 'items', '--study', String(studyId), KMP]);
  concord(['study', 'members', String(studyId), 'ann3']);
  concord(['study', 'open', String(studyId)]);

  const ann = await asUser(browser, 'ann3');
  const report = () =>
    JSON.parse(concord(['report', 'flows', '--study', String(studyId), '--json'])) as { submitted: number; perDay: { day: string }[] };
  await ann.page.goto(`/studies/${studyId}/review`);
  await expect(ann.page.getByTestId('step-1')).toBeVisible();
  await ann.page.keyboard.press('v');
  await ann.page.keyboard.press('Enter');
  await expect.poll(() => report().submitted).toBe(1);
  await ann.context.close();

  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  const day = report().perDay[0].day;
  await expect(page.getByTestId('single-day')).toContainText(`1 submission, all on ${day}`);
  await expect(page.getByRole('region', { name: 'Submissions per day' }).locator('svg')).toHaveCount(0);
  await context.close();
});
