import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PAIRWISE_CRITERION_TEMPLATE } from '../lib/validation/judge-templates';
import { startStandIn } from '../test/judge-standin';
import { concord } from './support/cli';
import { withReadonlyDb } from './support/server';
import { signInContext } from './support/session';

// Issue 21, point 3, from the browser: a template whose answer pattern would need backtracking is refused when it is
// saved, naming the field; and Cancel ends the process running the judge (the web server's detached runner) before
// the page shows the run cancelled, so the answers it was waiting for never become verdicts.

/** Whether process `pid` no longer runs (gone, or a zombie whose parent has not yet collected it). */
function processGone(pid: number) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

const launchOf = (name: string) =>
  withReadonlyDb(
    process.env.CONCORD_E2E_DB!,
    (db) =>
      db
        .prepare(
          `SELECT l.owner_pid AS pid, (SELECT count(*) FROM judge_answers a WHERE a.run_id = l.run_id) AS answers,
                  (SELECT count(*) FROM judge_labels j WHERE j.run_id = l.run_id) AS verdicts
             FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = ?`,
        )
        .get(name) as { pid: number | null; answers: number; verdicts: number } | undefined,
  );

test('a backtracking answer pattern is refused at save, and Cancel ends the runner process', async ({ page }) => {
  test.setTimeout(120_000);
  const standIn = await startStandIn();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-runner-safety-'));
  try {
    const items = Array.from({ length: 4 }, (_, i) =>
      JSON.stringify({
        id: `safe-${i}`,
        problem: `Problem ${i}`,
        a: { source: 'm1', text: `A ${i}` },
        b: { source: 'm2', text: `B ${i}` },
      }),
    );
    fs.writeFileSync(path.join(dir, 'items.jsonl'), items.join('\n'));
    const study = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Runner safety', '--criteria', 'none', '--json']))
      .id as number;
    concord(['import', 'items', '--study', String(study), path.join(dir, 'items.jsonl')]);

    // the endpoint is an admin's setting (here through the command line); the lead chooses it by name
    concord(['judge', 'endpoint', 'add', '--name', 'stand-in-safety', '--url', standIn.url, '--models', 'stand-in']);

    await signInContext(page.context(), 'lead');
    await page.goto(`/studies/${study}/judges`);
    const editor = page.getByLabel('Template (JSON: name, criteria, together, system, user, answer)');
    await editor.fill(JSON.stringify({ ...PAIRWISE_CRITERION_TEMPLATE, answer: { pattern: '(?<=winner": ")(first|second|tie)' } }));
    await page.getByRole('button', { name: 'Save version' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'answer.pattern:' })).toContainText('answer.pattern: uses lookaround');
    await editor.fill(JSON.stringify({ ...PAIRWISE_CRITERION_TEMPLATE, answer: { pattern: '"winner":\\s*"(first|second|tie)"' } }));
    await page.getByRole('button', { name: 'Save version' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved as' })).toBeVisible();

    // The stand-in holds its answers: the runner waits with two requests in flight.
    standIn.hold();
    const form = page.getByRole('form', { name: 'Start a judge run' });
    await form.getByLabel('Run name').fill('cancel-me');
    await form.getByLabel('Endpoint', { exact: true }).selectOption('stand-in-safety');
    await form.getByLabel('Model', { exact: true }).selectOption('stand-in');
    await form.getByLabel('Concurrent requests').fill('2');
    await form.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Started "cancel-me"' })).toBeVisible();
    await expect.poll(() => standIn.held(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => launchOf('cancel-me')?.pid ?? null, { timeout: 10_000 }).not.toBeNull();
    const pid = launchOf('cancel-me')!.pid!;
    expect(processGone(pid)).toBe(false);

    const run = page.getByRole('listitem', { name: 'Judge run cancel-me' });
    page.once('dialog', (d) => void d.accept());
    // The response of the cancel's server action, sent once the action has returned (the page's poll may show
    // 'cancelled' from the database before that; the body itself may be cut short by the page's refresh).
    const cancelled = page.waitForResponse((r) => r.request().method() === 'POST' && !!r.request().headers()['next-action']);
    await run.getByRole('button', { name: 'Cancel' }).click();
    await cancelled;
    // the action has returned: the runner process is gone by then
    expect(processGone(pid)).toBe(true);
    await expect(run.getByTestId('run-state')).toHaveText('cancelled');
    standIn.releaseHeld();
    expect(launchOf('cancel-me')).toMatchObject({ answers: 0, verdicts: 0 });
  } finally {
    standIn.releaseHeld();
    await standIn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
