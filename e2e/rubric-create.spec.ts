import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { asUser } from './support/session';

// A lead creates an MRBench rubric study in the browser and imports the dev set through the upload.
const dataDir = process.env.CONCORD_PUBLIC_DATA ? path.resolve(process.env.CONCORD_PUBLIC_DATA) : path.resolve('..', 'shared', 'data');
const devSet = path.join(dataDir, 'mrbench', 'mrbench_v3_devset.json');

test('a rubric study: catalog errors per dimension, then MRBench V3 with its gold labels through the upload', async ({ browser }) => {
  const raw = JSON.parse(fs.readFileSync(devSet, 'utf8')) as { conversation_id: string; tutor_responses: Record<string, unknown> }[];
  const replies = raw.reduce((n, r) => n + Object.keys(r.tutor_responses).length, 0);
  const { page, context } = await asUser(browser, 'lead');

  await page.goto('/studies/new');
  await page.getByLabel('Kind').selectOption('rubric');
  await page.getByLabel('Name').fill('MRBench in the browser');
  await page.getByLabel('Catalog', { exact: true }).selectOption('custom');
  const bad = [
    { id: 'leak', name: 'Answer withheld', labels: ['REJECT', 'OK'], desired: 'Fine' },
    { id: 'help', name: 'Helpful', labels: ['OK'], desired: 'OK' },
  ];
  await page.getByLabel(/Catalog JSON/).fill(JSON.stringify(bad));
  await page.getByRole('button', { name: 'Create study' }).click();
  const errors = page.getByTestId('catalog-errors');
  await expect(errors).toContainText('dimension 1 (leak), desired: "Fine" is not one of REJECT, OK');
  await expect(errors).toContainText('dimension 2 (help), labels:');
  await expect(page).toHaveURL(/\/studies\/new$/);

  await page.getByLabel('Catalog', { exact: true }).selectOption('mrbench-v3');
  await expect(page.getByTestId('catalog-preview')).toContainText('Notices the mistake');
  await page.getByRole('button', { name: 'Create study' }).click();
  await expect(page.getByRole('heading', { name: 'MRBench in the browser' })).toBeVisible();
  await expect(page.getByText(/2 reviewer\(s\) per item/)).toBeVisible();
  await expect(page.getByTestId('study-dimensions').getByRole('listitem')).toHaveCount(4);

  // A file with a bad line is refused whole, with its line and field.
  const items = page.getByRole('form', { name: 'Import items' });
  await items.getByLabel('Format').selectOption('concord');
  const badItems = [
    JSON.stringify({
      id: 'a',
      group: 'g',
      history: [{ role: 'student', text: '3 + 4 = 8' }],
      reply: { source: 'X', text: 'Check again.' },
    }),
    JSON.stringify({ id: 'b', group: 'g', history: [] }),
  ].join('\n');
  await items
    .locator('input[type=file]')
    .setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(badItems) });
  await items.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('import-errors')).toContainText('Nothing was imported');
  await expect(page.getByTestId('import-errors')).toContainText('line 2, history');
  await page.reload();
  await expect(page.getByText(/^0 items/)).toBeVisible();

  await items.getByLabel('Format').selectOption('mrbench');
  await items.locator('input[type=file]').setInputFiles(devSet);
  await items.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('import-result')).toContainText(`Imported ${replies.toLocaleString('en-US')} new item(s)`, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('import-result')).toContainText(`With them, ${replies.toLocaleString('en-US')} prior annotation(s).`);
  await page.reload();
  await expect(page.getByText(new RegExp(`^${replies.toLocaleString('en-US')} items`))).toBeVisible();

  // A judge run on two of its replies, two samples on one: three verdict sets' worth of labels.
  const [first, second] = Object.keys(raw[0].tutor_responses).map((t) =>
    `${raw[0].conversation_id}-${t}`.replace(/[^A-Za-z0-9._-]+/g, '_'),
  );
  const judgeLines = [
    { item: first, judge: 'browser-judge', labels: { mistake_identification: 'Yes', actionability: 'No' } },
    { item: first, judge: 'browser-judge', labels: { mistake_identification: 'To some extent' }, sample: 2 },
    { item: second, judge: 'browser-judge', labels: { providing_guidance: 'Yes' }, rationale: 'gives a hint' },
  ];
  const judge = page.getByRole('form', { name: 'Import a judge run' });
  await judge.locator('input[type=file]').setInputFiles({
    name: 'judge.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(judgeLines.map((l) => JSON.stringify(l)).join('\n')),
  });
  await judge.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(judge.getByTestId('import-result')).toContainText('Imported the run “browser-judge”: 4 verdicts from 3 records.');

  // Prior annotations: a label outside the dimension's set refuses the file and names the allowed labels.
  const priors = page.getByRole('form', { name: 'Import prior annotations' });
  const upload = async (lines: object[]) => {
    await priors.locator('input[type=file]').setInputFiles({
      name: 'prior.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')),
    });
    await priors.getByRole('button', { name: 'Import', exact: true }).click();
  };
  await upload([{ item: second, annotator: 'outside-rater', labels: { mistake_location: 'Maybe' } }]);
  await expect(priors.getByTestId('import-errors')).toContainText(
    'line 1, labels.mistake_location: "Maybe" is not one of No, To some extent, Yes',
  );
  await upload([{ item: second, annotator: 'outside-rater', labels: { mistake_location: 'To some extent' } }]);
  await expect(priors.getByTestId('import-result')).toContainText('Imported 1 prior annotation(s)');
  await context.close();
});
