import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { asUser } from './support/session';

const good = fs
  .readFileSync(path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl'), 'utf8')
  .trim()
  .split('\n');

test('a malformed import is refused with line numbers and changes nothing; a clean one is imported', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto('/studies/new');
  await page.getByLabel('Name').fill('Import check');
  await page.getByRole('button', { name: 'Create study' }).click();
  await expect(page.getByRole('heading', { name: 'Import check' })).toBeVisible();
  await expect(page.getByText(/^0 items/)).toBeVisible();

  const malformed = [good[0], '{"id": "x", "problem": {}, "steps": []}', good[1], 'not json at all', good[2]].join('\n');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(malformed) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText('Nothing was imported');
  await expect(errors).toContainText('line 2, problem.text');
  await expect(errors).toContainText('line 2, steps');
  await expect(errors).toContainText('line 4');
  await page.reload();
  await expect(page.getByText(/^0 items/)).toBeVisible();

  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'good.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(good.join('\n')) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByTestId('import-result')).toContainText('Imported 6 new item(s)');
  await expect(page.getByText(/^6 items/)).toBeVisible();
  await context.close();
});
