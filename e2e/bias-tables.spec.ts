import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * The pairwise Bias tab's judge position table, drawn by the dashboard both kinds share: one row per judge run and
 * criterion with the figures of the report JSON (`concord report bias --json`, which the service tests hold to
 * lib/stats), and the length bias of every grader beside it.
 * Run: npx next build, then E2E_PORT=3860 npx playwright test e2e/bias-tables.spec.ts
 */
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

test('the judge position table shows each run’s flips and its preference for the reply shown first, as the JSON says', async ({
  browser,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-bias-tables-'));
  const write = (name: string, rows: object[]) => {
    fs.writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
    return path.join(dir, name);
  };
  // Eight items; the judge saw six in both orders and changed its verdict on three of them.
  const ids = Array.from({ length: 8 }, (_, k) => `pos-${k}`);
  const gold = ['win', 'lose', 'win', 'tie', 'lose', 'win', 'lose', 'win'];
  const first = ['win', 'win', 'lose', 'tie', 'win', 'win', 'lose', 'win'];
  const swapped = ['win', 'lose', 'win', 'tie', 'lose', 'lose', null, null];
  const studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Position bias table', '--reviewers', '1', '--criteria', 'none', '--json']),
  ).id;
  concord([
    'import',
    'items',
    '--study',
    String(studyId),
    write(
      'items.jsonl',
      ids.map((id, k) => ({
        id,
        problem: `Problem ${id}`,
        a: { source: 'm', text: 'a'.repeat(10 + 7 * k) },
        b: { source: 'r', text: 'b'.repeat(40) },
      })),
    ),
  ]);
  concord([
    'import',
    'annotations',
    '--study',
    String(studyId),
    write(
      'gold.jsonl',
      ids.map((item, k) => ({ item, annotator: 'expert', labels: { overall: gold[k] } })),
    ),
  ]);
  concord([
    'import',
    'judge',
    '--study',
    String(studyId),
    write(
      'judge.jsonl',
      ids.flatMap((item, k) => [
        { item, judge: 'both-orders', labels: { overall: first[k] }, swapped: false },
        ...(swapped[k] ? [{ item, judge: 'both-orders', labels: { overall: swapped[k] }, swapped: true }] : []),
      ]),
    ),
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
  const json = JSON.parse(concord(['report', 'bias', '--study', String(studyId), '--json']));
  const [j] = json.judgePosition;
  expect(json.judgePosition).toHaveLength(1);
  expect(j).toMatchObject({ judge: 'both-orders', items: 8, itemsBothOrders: 6 });

  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/analytics/bias`);
  const rows = page.getByTestId('judge-position-table').getByTestId('judge-position-row');
  await expect(rows).toHaveCount(1);
  const cells = rows.first().getByRole('cell');
  await expect(cells).toHaveCount(6);
  await expect(cells.nth(0)).toHaveText('both-ordersoverall');
  await expect(cells.nth(1)).toHaveText('6 of 8');
  await expect(cells.nth(2)).toHaveText(pct(j.flipRate));
  await expect(cells.nth(3)).toHaveText(pct(j.reversalRate));
  await expect(rows.first().getByTestId('first-rate')).toContainText(pct(j.firstPreferred.rate));
  await expect(cells.nth(4)).toContainText(`${j.firstPreferred.count} of ${j.firstPreferred.decisive}`);
  await expect(page.getByTestId('human-position-empty')).toBeVisible();
  // The ground truth and the run, each on the one criterion.
  await expect(page.getByTestId('length-row')).toHaveCount(json.length.length);
  await expect(page.getByTestId('length-row').first()).toContainText('Ground truth');
  await context.close();
});
