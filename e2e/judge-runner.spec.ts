import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startStandIn } from '../test/judge-standin';
import { concord } from './support/cli';
import { withReadonlyDb } from './support/server';
import { signIn } from './support/session';

// A lead runs a judge from the browser against a local OpenAI-compatible stand-in: starts it, watches its
// progress, pauses and resumes it, reads its unreadable answers, and opens the alignment dashboard on it.
const ITEMS = 8;
const REQUESTS = ITEMS * 2; // overall only, both orders

test('a lead starts a judge run, watches it, pauses and resumes it, and reads its alignment', async ({ page }) => {
  test.setTimeout(120_000);
  const standIn = await startStandIn({ port: 3501, delayMs: 400 });
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

    await signIn(page, 'lead');
    await page.goto(`/studies/${study}/judges`);
    await expect(page.getByRole('heading', { name: 'Judge runs' })).toBeVisible();

    // the template preview fills the placeholders for a chosen item
    await page.getByLabel('Item id for the preview').fill('run-3');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('preview-user')).toContainText('How many sides has shape 3?');
    await expect(page.getByTestId('preview-user')).toContainText('Candidate reply 1:\nCount them: 3');

    // a bad endpoint is refused, with the field named
    const form = page.getByRole('form', { name: 'Start a judge run' });
    await form.getByLabel('Run name').fill('browser-run');
    await form.getByLabel('Endpoint base URL').fill('javascript:alert(1)');
    await form.getByLabel('Model', { exact: true }).fill('stand-in');
    await form.getByLabel('Concurrent requests').fill('1');
    await form.getByLabel('Price per million input tokens ($)').fill('3');
    await form.getByLabel('Price per million output tokens ($)').fill('15');
    await form.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'endpoint:' })).toContainText('endpoint: must be an http:// or https:// URL');

    // two answers will be unreadable
    standIn.misbehave('noverdict');
    standIn.misbehave('truncated');
    await form.getByLabel('Endpoint base URL').fill(standIn.url);
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
        db.prepare('SELECT owner_pid FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = ? AND r.study_id = ?').pluck().get('browser-run', study),
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
