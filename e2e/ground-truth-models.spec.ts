import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { dawidSkene } from '../lib/stats/dawid-skene';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Issue 27 in the browser: a study planned for two reviewers takes five prior raters per item through the CLI's
 * import and opens without anyone assigned, the lead chooses Dawid–Skene on the study page, and the ground-truth export the page links to carries
 * the model's label, its provenance and posterior for every item (decision 0028).
 */

test.describe.configure({ mode: 'serial' });

const RATERS = ['crowd1', 'crowd2', 'crowd3', 'crowd4', 'crowd5'];
const ITEMS = 8;
const LABELS = ['lose', 'tie', 'win'];
const label = (i: number, j: number) => (j === 4 && i % 2 === 0 ? 'lose' : j === 3 && i % 3 === 0 ? 'tie' : 'win');
let studyId: number;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-models-'));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `crowd-${i}`,
    problem: `How many apples are in ${i + 2} bags of 3?`,
    principles: [],
    history: [{ role: 'student', text: 'Is it 7?' }],
    a: { source: 'model-q', text: 'Count the apples in one bag first.' },
    b: { source: 'reference', text: 'Multiply the bags by three.' },
  }));
  // Raters mostly say "win"; crowd5 says "lose" on every other item, crowd4 "tie" on every third.
  const prior = items.flatMap((it, i) => RATERS.map((annotator, j) => ({ item: it.id, annotator, labels: { overall: label(i, j) } })));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  fs.writeFileSync(path.join(dir, 'prior.jsonl'), prior.map((x) => JSON.stringify(x)).join('\n'));
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Crowd models', '--criteria', 'none', '--reviewers', '2', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), path.join(dir, 'items.jsonl')]);
  concord(['import', 'annotations', '--study', String(studyId), path.join(dir, 'prior.jsonl')]);
  // Every item already has more raters than the two planned: the study opens without assigning anyone.
  concord(['study', 'open', String(studyId)]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the lead chooses Dawid–Skene ground truth on the study page and exports its labels with their posteriors', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  const rule = page.getByLabel('Ground truth rule');
  await expect(rule).toHaveValue('adjudicated');
  await expect(rule.locator('option')).toHaveText([
    'Agreed, else adjudicated',
    'Majority of the reviewers, else adjudicated',
    'Dawid–Skene model over the whole study (a ruling overrides)',
    'MACE model over the whole study (a ruling overrides)',
  ]);
  await rule.selectOption('dawid_skene');
  // The choice is stored: a fresh load shows it.
  await expect(async () => {
    await page.reload();
    await expect(page.getByLabel('Ground truth rule')).toHaveValue('dawid_skene', { timeout: 1000 });
  }).toPass();

  const res = await page.request.get(`/api/studies/${studyId}/export?what=ground-truth&format=csv`);
  expect(res.status()).toBe(200);
  const csv = parseCsv(await res.text());
  expect(csv[0].slice(0, 5)).toEqual(['item', 'criterion', 'label', 'provenance', 'posterior']);
  // Five reviewer columns although the plan is two: every prior rater is kept.
  expect(csv[0].filter((h) => /^reviewer\d+_label$/.test(h))).toHaveLength(RATERS.length);
  // The labels and posteriors of lib/stats' Dawid–Skene on the same labels.
  const fit = dawidSkene({
    labels: [0, 1, 2],
    annotators: RATERS,
    items: Array.from({ length: ITEMS }, (_, i) => i),
    annotations: Array.from({ length: ITEMS }, (_, i) => RATERS.map((a, j) => [i, a, LABELS.indexOf(label(i, j))] as const)).flat(),
  });
  const rows = csv.slice(1);
  expect(rows.map((r) => [r[0], r[1], r[2], r[3]])).toEqual(fit.labels.map((l, i) => [`crowd-${i}`, 'overall', LABELS[l], 'dawid_skene']));
  rows.forEach((r, i) => expect(Math.abs(Number(r[4]) - fit.posteriors[i][fit.labels[i]])).toBeLessThan(1e-12));
  await context.close();
});
