import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * A pairwise study of its own, with prior annotations that leave one item agreed, two disputed and one waiting for
 * its second review: the adjudicator settles the first dispute by keyboard (shortcut keys never type into the
 * rationale), then the lead reads every item's state on the study's Items page.
 */

test.describe.configure({ mode: 'serial' });

const RATIONALE = 'Both responses explain the groups equally well.';
let studyId: number;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-items-'));
  const item = (id: string, principles: string[]) => ({
    id,
    problem: `How many apples are in 4 bags of 3? (${id})`,
    principles,
    history: [{ role: 'student', text: 'Is it 7?' }],
    a: { source: 'model-q', text: 'Count the apples in one bag first.' },
    b: { source: 'reference', text: 'Four bags, three in each: what is 4 × 3?' },
  });
  const items = [
    item('items-agree', ['Practice']),
    item('items-settled', ['Questioning']),
    item('items-open', []),
    item('items-waiting', []),
  ];
  const prior = [
    ['items-agree', 'prior1', 'win'],
    ['items-agree', 'prior2', 'win'],
    ['items-settled', 'prior1', 'win'],
    ['items-settled', 'prior2', 'lose'],
    ['items-open', 'prior1', 'lose'],
    ['items-open', 'prior2', 'tie'],
  ].map(([it, annotator, label]) => ({ item: it, annotator, labels: { overall: label } }));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  fs.writeFileSync(path.join(dir, 'prior.jsonl'), prior.map((x) => JSON.stringify(x)).join('\n'));
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Items check', '--criteria', 'none', '--reviewers', '2', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), path.join(dir, 'items.jsonl')]);
  concord(['import', 'annotations', '--study', String(studyId), path.join(dir, 'prior.jsonl')]);
  concord(['study', 'members', String(studyId), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(studyId)]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('adjudication by keyboard: shortcut keys never type into the rationale until r opens it', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'adj');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/studies/${studyId}/adjudicate`);
  const current = page.getByTestId('adjudicate');
  await expect(current).toHaveAttribute('data-item', /\d+/);
  const first = await current.getAttribute('data-item');
  const row = page.getByTestId('adjudicate-overall');
  await expect(row).toContainText('Reviewer 2');
  const note = row.getByRole('textbox');
  const choice = () => row.getByRole('radio', { checked: true });
  const noFieldFocused = () => page.evaluate(() => !(document.activeElement instanceof HTMLTextAreaElement));

  // The keys are on screen and in the ? list.
  const bar = page.locator('section[aria-label="Settle"]');
  await expect(bar).toContainText('rationale');
  await expect(bar).toContainText('Esc');
  await page.keyboard.press('?');
  const help = page.getByRole('dialog');
  await expect(help).toContainText('Write a rationale for the focused criterion');
  await expect(help).toContainText('Leave the rationale field');
  await page.keyboard.press('?');
  await expect(help).toBeHidden();

  // A tie overrules both reviewers (one preferred each reply), so a rationale is owed: the field shows, unfocused.
  await page.keyboard.press('2');
  await expect(note).toBeVisible();
  await expect(choice()).toHaveAccessibleName(/Tie/);
  expect(await noFieldFocused()).toBe(true);
  // Enter refuses to settle and says why, but does not move into the field; the next keys stay shortcuts.
  await page.keyboard.press('Enter');
  await expect(bar).toContainText(/rationale/i);
  expect(await noFieldFocused()).toBe(true);
  for (const key of ['k', 'k', 'j', 'i', '3', '2', 'Enter', 'k']) await page.keyboard.press(key);
  await expect(note).toHaveValue('');
  expect(await noFieldFocused()).toBe(true);
  await expect(choice()).toHaveAccessibleName(/Tie/);
  await expect(current).toHaveAttribute('data-item', first!);

  // r opens the field (without typing an r), Escape leaves it for the criteria list, and keys are shortcuts again.
  await page.keyboard.press('r');
  await expect(note).toBeFocused();
  await expect(note).toHaveValue('');
  await page.keyboard.type(RATIONALE);
  await page.keyboard.press('Escape');
  await expect(note).not.toBeFocused();
  await expect(choice()).toBeFocused();
  for (const key of ['k', '3', '2']) await page.keyboard.press(key);
  await expect(note).toHaveValue(RATIONALE);
  await expect(choice()).toHaveAccessibleName(/Tie/);
  await page.keyboard.press('Enter');
  await expect(current).not.toHaveAttribute('data-item', first!);
  await context.close();

  // The exported rationale is exactly what was typed after r.
  const lead = await asUser(browser, 'lead');
  const res = await lead.page.request.get(`/api/studies/${studyId}/export?what=ground-truth&format=csv`);
  expect(res.status()).toBe(200);
  const rows = parseCsv(await res.text());
  const settled = rows.find((r) => r[0] === 'items-settled' && r[1] === 'overall');
  expect(settled?.slice(2, 4)).toEqual(['tie', 'adjudicated']);
  expect(settled?.[7]).toBe(RATIONALE);
  await lead.context.close();
});

test('the lead sees every pairwise item with its sources, judgments and state; an annotator cannot open the page', async ({ browser }) => {
  const lead = await asUser(browser, 'lead');
  const page = lead.page;
  await page.goto(`/studies/${studyId}`);
  await page.getByRole('link', { name: 'Browse the items' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/items$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Items' })).toBeVisible();
  await expect(page.getByTestId('item-count')).toHaveText('4 items');
  const row = (id: string) => page.getByRole('row').filter({ hasText: id });
  const expected: [string, RegExp[]][] = [
    ['items-agree', [/Practice/, /judged/, /2 \/ 2/, /A better/]],
    ['items-settled', [/Questioning/, /adjudicated/, /2 \/ 2/, /tie/i]],
    ['items-open', [/disagreement/, /2 \/ 2/]],
    ['items-waiting', [/waiting/, /0 \/ 2/]],
  ];
  for (const [id, texts] of expected) {
    await expect(row(id)).toHaveCount(1);
    for (const t of texts) await expect(row(id)).toContainText(t);
    await expect(row(id)).toContainText('model-q');
    await expect(row(id)).toContainText('reference');
  }
  // No ground truth yet where the item is not settled.
  await expect(row('items-open').getByTestId('ground-truth')).toHaveText('–');
  await expect(row('items-waiting').getByTestId('ground-truth')).toHaveText('–');

  // Filters: by state, and by text in the id; the count follows.
  await page.getByLabel('State').selectOption('disagreement');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('item-count')).toHaveText('1 item');
  await expect(row('items-open')).toHaveCount(1);
  await expect(row('items-agree')).toHaveCount(0);
  await page.getByLabel('State').selectOption('');
  await page.getByLabel('Item id contains').fill('wait');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('item-count')).toHaveText('1 item');
  await expect(row('items-waiting')).toHaveCount(1);
  await lead.context.close();

  const ann = await asUser(browser, 'ann1');
  expect((await ann.page.goto(`/studies/${studyId}/items`))?.status()).toBe(404);
  await ann.context.close();
});
