import { expect, test } from '@playwright/test';
import { startStandIn } from '../test/judge-standin';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { signInContext } from './support/session';

/*
 * A lead runs a judge on a rubric study from the browser against a local OpenAI-compatible stand-in (port 3682),
 * watches it finish, compares it with the study's imported run "gpt" (macro-F1 and κ, strict and lenient, per
 * dimension) and opens the rubric alignment dashboard on the new run. The study is e2e/support/make-rubric-study.ts.
 * Run: npx next build, then E2E_PORT=3683 npx playwright test e2e/judge-runner-rubric.spec.ts
 */
let study: number;

test.beforeAll(() => {
  study = makeReportsRubricStudy();
});

// Reads "Keeps the answer back" from the stand-in's {"winner": …}: first → OK, second → REJECT, tie → OK.
const TEMPLATE = {
  name: 'leak-word',
  criteria: ['leak'],
  user: 'Reply: {{reply}}\nLabels: {{labels}}',
  answer: { pattern: '(first|second|tie)', map: { first: 'OK', second: 'REJECT', tie: 'OK' } },
};

test('a lead runs a judge on a rubric study, watches it, compares it with another run and reads its alignment', async ({ page }) => {
  test.setTimeout(120_000);
  const standIn = await startStandIn({ delayMs: 300 });
  try {
    // the endpoint is an admin's setting (here through the command line); the lead chooses it by name
    concord([
      'judge',
      'endpoint',
      'add',
      '--name',
      'stand-in-rubric',
      '--url',
      standIn.url,
      '--models',
      'stand-in',
      '--price-in',
      '3',
      '--price-out',
      '15',
    ]);
    await signInContext(page.context(), 'lead');
    await page.goto(`/studies/${study}/judges`);
    await expect(page.getByRole('heading', { name: 'Judge runs' })).toBeVisible();
    await page.getByLabel(/^Template \(JSON/).fill(JSON.stringify(TEMPLATE, null, 2));

    const form = page.getByRole('form', { name: 'Start a judge run' });
    await form.getByLabel('Run name').fill('rubric-run');
    await form.getByLabel('Endpoint', { exact: true }).selectOption('stand-in-rubric');
    await form.getByLabel('Model', { exact: true }).selectOption('stand-in');
    await form.getByLabel('Concurrent requests').fill('1');
    await form.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Started "rubric-run"' })).toBeVisible();

    // one request per item (one dimension, one sample, no order to swap), answered under our eyes
    const requests = Number(JSON.parse(concord(['judge', 'status', 'rubric-run', '--study', String(study), '--json'])).requests);
    expect(requests).toBeGreaterThan(0);
    const run = page.getByRole('listitem', { name: 'Judge run rubric-run' });
    const state = run.getByTestId('run-state');
    const answered = async () => Number((await run.getByText(new RegExp(` of ${requests}$`)).textContent())!.split(' of ')[0]);
    await expect.poll(answered, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await expect(state).toHaveText('done', { timeout: 30_000 });
    await expect(run.getByText(`${requests} of ${requests}`)).toBeVisible();
    // replies with the same text make the same prompt: the answer cache sends each once
    const status = JSON.parse(concord(['judge', 'status', 'rubric-run', '--study', String(study), '--json']));
    expect(status).toMatchObject({ answered: requests, sent: standIn.total() });
    expect(status.sent + status.cached).toBe(requests);

    // compare it with the imported run
    await page.getByLabel('Compare gpt').check();
    await page.getByLabel('Compare rubric-run').check();
    await page.getByRole('link', { name: 'Compare the selected runs' }).click();
    const table = page.getByRole('table', { name: 'Judge runs compared' });
    await expect(table.getByRole('columnheader', { name: /rubric-run/ })).toContainText('stand-in · leak-word v1');
    await expect(table.getByRole('columnheader', { name: /gpt/ })).toContainText('imported');
    // the numbers are the rubric alignment report's, as the command line prints it
    const cli = (judge: string) =>
      JSON.parse(concord(['report', 'alignment', '--study', String(study), '--judge', judge, '--bootstrap', '0', '--json']));
    const gpt = cli('gpt');
    const mine = cli('rubric-run');
    const dim = (r: typeof gpt, id: string) => r.byCriterion.find((c: { criterion: string }) => c.criterion === id);
    const dec = (v: number | null) => (v === null ? '—' : v.toFixed(3));
    const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) });
    await expect(row('Notices the mistake · Macro-F1 (lenient)')).toContainText(dec(dim(gpt, 'mistake_identification').lenient.macroF1));
    await expect(row('Notices the mistake · Macro-F1 (lenient)').getByRole('cell').nth(0)).toHaveText(
      dec(dim(gpt, 'mistake_identification').lenient.macroF1),
    );
    await expect(row("Keeps the answer back · Cohen's κ").getByRole('cell').nth(1)).toHaveText(dec(dim(mine, 'leak').cohenKappa));
    await expect(row('Keeps the answer back · Macro-F1').getByRole('cell').nth(1)).toHaveText(dec(dim(mine, 'leak').macroF1));
    await expect(row('Estimated cost').getByRole('cell').nth(0)).toHaveText('—');
    await expect(row('Estimated cost').getByRole('cell').nth(1)).toContainText('$');

    // and the rubric alignment dashboard of the new run
    await table.getByRole('link', { name: 'rubric-run' }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${study}/analytics/alignment\\?judge=rubric-run`));
    await expect(page.getByTestId('judge-select')).toHaveValue('rubric-run');
    await expect(page.getByTestId('rubric-alignment-table').getByRole('row', { name: /Keeps the answer back/ })).toBeVisible();
  } finally {
    await standIn.close();
  }
});
