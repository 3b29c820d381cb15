import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

// A pairwise study of its own (the demo studies stay as other specs expect them): four items, three judge runs
// whose overall verdicts give one clear majority, one three-way tie, one unanimous item and one item a run skipped.
test('a lead combines judge runs on the study page, sees the recipe, and finds the new run on the alignment dashboard', async ({
  browser,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-combine-'));
  const { id } = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Combine runs e2e', '--json']));
  const ids = ['c1', 'c2', 'c3', 'c4'];
  const items = path.join(dir, 'items.jsonl');
  fs.writeFileSync(
    items,
    ids
      .map((item) =>
        JSON.stringify({ id: item, problem: `Problem ${item}`, a: { source: 'm', text: 'A' }, b: { source: 'ref', text: 'B' } }),
      )
      .join('\n'),
  );
  concord(['import', 'items', '--study', String(id), items]);
  const verdicts: Record<string, string[]> = {
    x: ['win', 'win', 'tie', 'lose'],
    y: ['win', 'tie', 'tie', 'lose'],
    z: ['lose', 'lose', 'tie'],
  };
  for (const [run, labels] of Object.entries(verdicts)) {
    const file = path.join(dir, `${run}.jsonl`);
    fs.writeFileSync(file, labels.map((l, k) => JSON.stringify({ item: ids[k], judge: run, labels: { overall: l } })).join('\n'));
    concord(['import', 'judge', '--study', String(id), file]);
  }
  concord(['study', 'members', String(id), 'ann1', 'ann2']);
  concord(['study', 'open', String(id)]);
  fs.rmSync(dir, { recursive: true, force: true });

  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${id}`);
  const form = page.getByTestId('combine-runs-form');
  const button = form.getByRole('button', { name: 'Combine runs' });
  await expect(button).toBeDisabled();
  for (const run of ['x', 'y', 'z']) await form.getByRole('checkbox', { name: run, exact: true }).check();
  await form.getByLabel('Name of the new run').fill('majority of three');
  await button.click();
  await expect(form.getByTestId('combine-result')).toContainText('Run “majority of three” created');
  const row = page.getByTestId('judge-run-row').filter({ hasText: 'majority of three' });
  await expect(row).toContainText('2');
  await expect(row.getByTestId('judge-run-recipe')).toHaveText(
    'Combined by majority from x, y, z: 2 of 4 item × criterion pairs got a verdict; left unjudged: 1 tied, 1 missing a verdict.',
  );

  // The same name again is refused with the reason, and nothing new is listed.
  for (const run of ['x', 'y']) await form.getByRole('checkbox', { name: run, exact: true }).check();
  await form.getByLabel('Name of the new run').fill('majority of three');
  await button.click();
  await expect(form.getByRole('alert')).toContainText('already exists');
  await expect(page.getByTestId('judge-run-row')).toHaveCount(4);

  await page.goto(`/studies/${id}/analytics/alignment`);
  const select = page.getByTestId('judge-select');
  await expect(select.getByRole('option', { name: /^majority of three — 2 verdicts/ })).toHaveCount(1);
  await select.selectOption('majority of three');
  await expect(page).toHaveURL(/judge=majority/);
  await context.close();
});
