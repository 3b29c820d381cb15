import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * A lead opens one item from the items list: the content and the sources reviewers never see, each reviewer's label
 * side by side, the adjudicator's ruling and rationale, the judge's verdict and rationale; and narrows the list to
 * the items where the judge disagrees with the ground truth.
 */

test.describe.configure({ mode: 'serial' });

const RATIONALE = 'Both replies help equally: call it a tie.';
let studyId: number;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-item-page-'));
  const item = (id: string) => ({
    id,
    problem: `What is 6 × 7? (${id})`,
    principles: [],
    history: [{ role: 'student', text: 'Is it 48?' }],
    a: { source: 'model-q', text: `Split it: 6 × 5 + 6 × 2. (${id})` },
    b: { source: 'reference', text: `What is 6 × 6 first? (${id})` },
  });
  const ids = ['detail-agree', 'detail-split', 'detail-judge-off'];
  const prior = [
    ['detail-agree', 'prior1', 'win'],
    ['detail-agree', 'prior2', 'win'],
    ['detail-split', 'prior1', 'win'],
    ['detail-split', 'prior2', 'lose'],
    ['detail-judge-off', 'prior1', 'tie'],
    ['detail-judge-off', 'prior2', 'tie'],
  ].map(([it, annotator, label]) => ({ item: it, annotator, labels: { overall: label } }));
  const verdicts = [
    ['detail-agree', 'win', 'Reply a breaks the product into known facts.'],
    ['detail-split', 'lose', 'Reply b asks the student to think first.'],
    ['detail-judge-off', 'win', 'Reply a is more direct.'],
  ].map(([it, label, rationale]) => ({ item: it, judge: 'judge-q', labels: { overall: label }, swapped: false, rationale }));
  const write = (name: string, rows: object[]) => {
    fs.writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
    return path.join(dir, name);
  };
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Item page check', '--criteria', 'none', '--reviewers', '2', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), write('items.jsonl', ids.map(item))]);
  concord(['import', 'annotations', '--study', String(studyId), write('prior.jsonl', prior)]);
  concord(['study', 'members', String(studyId), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(studyId)]);
  concord(['import', 'judge', '--study', String(studyId), write('judge.jsonl', verdicts)]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the adjudicator settles the split item as a tie, with a rationale', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'adj');
  await page.goto(`/studies/${studyId}/adjudicate`);
  const row = page.getByTestId('adjudicate-overall');
  await expect(row).toContainText('Reviewer 2');
  await page.keyboard.press('2');
  await page.keyboard.press('r');
  await page.keyboard.type(RATIONALE);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await expect(page.getByText('All 1 items with disagreements are settled.')).toBeVisible();
  await context.close();
});

test('the item page shows sources, both reviewers side by side, the ruling and rationale, and the judge with its rationale', async ({
  browser,
}) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/items`);
  await page.getByRole('link', { name: 'detail-split' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/items/\\d+$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('detail-split');
  await expect(page.getByTestId('reply-a')).toContainText('source: model-q');
  await expect(page.getByTestId('reply-b')).toContainText('source: reference');
  await expect(page.getByTestId('reply-a')).toContainText('Split it: 6 × 5 + 6 × 2. (detail-split)');

  const table = page.getByTestId('item-criteria');
  const header = await table.locator('thead th').allTextContents();
  expect(header).toEqual(['Criterion', 'prior1', 'prior2', 'Ground truth', 'Adjudication', 'Judge: judge-q']);
  const overall = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Overall' }) });
  const cells = overall.getByRole('cell');
  await expect(cells.nth(0)).toHaveText('A better');
  await expect(cells.nth(1)).toHaveText('B better');
  await expect(cells.nth(2)).toHaveText('Tie (adjudicated)');
  await expect(cells.nth(3)).toContainText('Tie by adj');
  await expect(cells.nth(3)).toContainText(RATIONALE);
  await expect(cells.nth(4)).toContainText('B better');
  await cells.nth(4).getByText('rationale').click();
  await expect(cells.nth(4)).toContainText('Reply b asks the student to think first.');

  await expect(page.getByTestId('item-rulings')).toContainText(`Overall: Tie by adj — “${RATIONALE}”`);
  const reviewers = page.getByTestId('item-reviewers');
  await expect(reviewers.getByRole('listitem').filter({ hasText: 'prior1' }).first()).toContainText('rev 1');
  await context.close();
});

test('the items list narrows to where the judge disagrees with the ground truth', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/items`);
  await page.getByLabel('Judge disagrees with ground truth').selectOption('judge-q');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/judge=judge-q/);
  await expect(page.getByTestId('item-count')).toHaveText('2 items');
  const list = page.getByTestId('pairwise-item-list');
  // Ground truth tie (agreed) against the judge's "a better", and tie (adjudicated) against "b better".
  await expect(list.getByRole('row').filter({ hasText: 'detail-judge-off' })).toContainText('A better');
  await expect(list.getByRole('row').filter({ hasText: 'detail-split' })).toContainText('B better');
  await expect(list.getByRole('row').filter({ hasText: 'detail-agree' })).toHaveCount(0);
  await context.close();
});

test('a flow opens on its own page from the flows list; annotators cannot open item pages', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto('/studies');
  await page.getByTestId('studies-table').getByRole('link', { name: 'KMP-style flows' }).click();
  await page.waitForURL(/\/studies\/\d+$/);
  const flowsStudy = Number(/\/studies\/(\d+)/.exec(page.url())?.[1]);
  await page.goto(`/studies/${flowsStudy}/items`);
  const first = page.getByTestId('flow-list').getByRole('link').first();
  const flowId = await first.textContent();
  await first.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(flowId!.trim());
  await expect(page.getByRole('list', { name: 'Steps' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reviewers and their decisions' })).toBeVisible();
  const itemUrl = page.url();
  await context.close();

  const ann = await asUser(browser, 'ann1');
  const res = await ann.page.goto(itemUrl);
  expect(res?.status()).toBe(404);
  await ann.context.close();
});
