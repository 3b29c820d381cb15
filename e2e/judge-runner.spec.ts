import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startStandIn } from '../test/judge-standin';
import { concord } from './support/cli';
import { withReadonlyDb } from './support/server';
import { asUser, signInContext } from './support/session';

// An admin configures a local OpenAI-compatible stand-in as a judge endpoint; a lead chooses it by name and runs a
// judge from the browser: starts it, watches its progress, pauses and resumes it, reads its unreadable answers, and
// opens the alignment dashboard on it.
const ITEMS = 8;
const REQUESTS = ITEMS * 2; // overall only, both orders

test('an admin configures an endpoint; a lead starts a judge run on it, watches it, pauses and resumes it, and reads its alignment', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const standIn = await startStandIn({ delayMs: 400 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-runner-'));
  try {
    const items = Array.from({ length: ITEMS }, (_, i) =>
      JSON.stringify({
        id: `run-${i}`,
        problem: `How many sides has shape ${i}?`,
        a: { source: 'm1', text: `Count them: ${i}` },
        b: { source: 'm2', text: 'Six.' },
      }),
    );
    fs.writeFileSync(path.join(dir, 'items.jsonl'), items.join('\n'));
    const study = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Runner e2e', '--criteria', 'none', '--json']))
      .id as number;
    concord(['import', 'items', '--study', String(study), path.join(dir, 'items.jsonl')]);

    // The admin's page refuses an endpoint that would reach another path of a service, then adds the stand-in.
    const admin = await asUser(browser, 'admin');
    await admin.page.goto('/');
    await admin.page.getByRole('link', { name: 'Judge endpoints' }).click();
    const add = admin.page.getByRole('form', { name: 'New judge endpoint' });
    await add.getByLabel('Name', { exact: true }).fill('stand-in-runner');
    await add.getByLabel('Base URL').fill(`http://127.0.0.1:${standIn.port}/admin?x=`);
    await add.getByLabel(/^Key environment variable/).fill('AUTH_SECRET');
    await add.getByLabel(/^Models leads may choose/).fill('stand-in\nstand-in-large');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(add.getByText('must not have a query (?…)', { exact: false })).toBeVisible();
    await expect(add.getByText("AUTH_SECRET cannot hold an endpoint's key", { exact: false })).toBeVisible();
    await add.getByLabel('Base URL').fill(standIn.url);
    await add.getByLabel(/^Key environment variable/).fill('');
    await add.getByLabel('Price per million input tokens ($)').fill('3');
    await add.getByLabel('Price per million output tokens ($)').fill('15');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(admin.page.getByRole('status')).toHaveText('Added stand-in-runner.');
    await expect(admin.page.getByRole('row', { name: 'Endpoint stand-in-runner' })).toContainText('stand-in, stand-in-large');
    await admin.context.close();

    await signInContext(page.context(), 'lead');
    await page.goto(`/studies/${study}/judges`);
    await expect(page.getByRole('heading', { name: 'Judge runs' })).toBeVisible();

    // the template preview fills the placeholders for a chosen item
    await page.getByLabel('Item id for the preview').fill('run-3');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('preview-user')).toContainText('How many sides has shape 3?');
    await expect(page.getByTestId('preview-user')).toContainText('Candidate reply 1:\nCount them: 3');

    // the lead chooses the endpoint by name and one of its models; there is no URL, key or price to enter
    const form = page.getByRole('form', { name: 'Start a judge run' });
    await expect(form.getByLabel('Endpoint', { exact: true })).toContainText('stand-in-runner');
    await form.getByLabel('Endpoint', { exact: true }).selectOption('stand-in-runner');
    await expect(form.getByLabel('Model', { exact: true }).getByRole('option')).toHaveText(['stand-in', 'stand-in-large']);
    await form.getByLabel('Model', { exact: true }).selectOption('stand-in');
    await expect(form.getByRole('textbox', { name: /URL|environment variable|Price/ })).toHaveCount(0);
    await form.getByLabel('Run name').fill('browser-run');
    await form.getByLabel('Concurrent requests').fill('1');

    // two answers will be unreadable
    standIn.misbehave('noverdict');
    standIn.misbehave('truncated');
    await form.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Started "browser-run"' })).toBeVisible();

    const run = page.getByRole('listitem', { name: 'Judge run browser-run' });
    const state = run.getByTestId('run-state');
    await expect(state).toHaveText('running');
    // progress moves under our eyes (polling)
    const answered = async () => Number((await run.getByText(/ of 16$/).textContent())!.split(' of ')[0]);
    await expect.poll(answered, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await expect(run).toContainText('Rate:');
    await expect(run).toContainText(/Estimated cost: \$\d/);

    await run.getByRole('button', { name: 'Pause' }).click();
    await expect(state).toHaveText('paused');
    // once paused, nothing more arrives: the runner reads the state every second, lets the request in flight
    // finish, and then lets go of the run (its owner is cleared); from then on no process sends for it
    const owner = () =>
      withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
        db
          .prepare('SELECT owner_pid FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = ? AND r.study_id = ?')
          .pluck()
          .get('browser-run', study),
      );
    await expect.poll(owner, { timeout: 15_000 }).toBeNull();
    const atPause = standIn.total();
    const shownAtPause = await answered();
    expect(shownAtPause).toBeLessThan(REQUESTS);
    await expect(state).toHaveText('paused');
    expect(standIn.total()).toBe(atPause);

    await run.getByRole('button', { name: 'Resume' }).click();
    await expect(state).toHaveText('running');
    await expect(state).toHaveText('done', { timeout: 30_000 });
    await expect(run.getByText(`${REQUESTS} of ${REQUESTS}`)).toBeVisible();

    await run.getByRole('button', { name: 'Show unreadable answers' }).click();
    const unreadable = run.getByRole('list', { name: 'Unreadable answers' });
    await expect(unreadable).toContainText('Both replies have their merits');
    await expect(unreadable).toContainText('{"winner": "fir');

    // the status the CLI reads is the same run
    const status = JSON.parse(concord(['judge', 'status', 'browser-run', '--study', String(study), '--json']));
    expect(status).toMatchObject({ requests: REQUESTS, answered: REQUESTS, unreadable: 2 });
    // every request answered once: the pause lost nothing and sent nothing twice
    expect([...standIn.counts.values()].every((n) => n === 1)).toBe(true);
    expect(standIn.counts.size).toBe(REQUESTS);

    // the alignment dashboard reads the new run
    await run.getByRole('link', { name: 'Alignment dashboard' }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${study}/analytics/alignment\\?judge=browser-run`));
    await expect(page.getByTestId('judge-select')).toHaveValue('browser-run');

    // and the comparison view lists it
    await page.goto(`/studies/${study}/judges?compare=browser-run`);
    await expect(page.getByRole('table', { name: 'Judge runs compared' })).toContainText('browser-run');
  } finally {
    await standIn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
