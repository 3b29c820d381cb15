import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { concord } from './support/cli';
import { asUser, DEMO_PASSWORD } from './support/session';

// Issue 26, point 8 (the rest), at 1440×900 where they were seen: history rows name rubric items and flows; the
// rubric item page's table stays inside its card and the page has previous/next and revisions; "Undo last" never
// takes back a label the demo seed submitted; "Guidelines updated" only for a reviewer who worked under version 1.

const FLOWS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const WIDE = { viewport: { width: 1440, height: 900 } };
// The demo seed's MRBench V3 study (lib/server/demo/rubric-demo.ts): ann1 and ann2 each have 167 replies submitted
// by the seed; the AITutor-EvalKit sample (study 8) has three judge runs with long names.
const MRBENCH_DEMO = 7;
const AITUTOR_DEMO = 8;
const PASSWORD = 'ux-review-details-2026';
// A worker that restarts after a failure runs beforeAll again: its accounts get names of their own.
const RUN = Date.now().toString(36);
const EARLY = `uxrd-early-${RUN}`;
const LATE = `uxrd-late-${RUN}`;
let flows = 0;

test.beforeAll(() => {
  for (const name of [EARLY, LATE]) concord(['user', 'add', name, '--role', 'annotator'], PASSWORD);
  flows = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'UX details flows', '--reviewers', '1', '--json'])).id;
  concord(['import', 'items', '--study', String(flows), FLOWS]);
  concord(['study', 'members', String(flows), EARLY, LATE]);
  concord(['study', 'open', String(flows)]);
});

function as(browser: Browser, username: string, password = DEMO_PASSWORD) {
  return asUser(browser, username, password, WIDE);
}

test('"Undo last" on a reviewer\'s first item does not offer to take back a label the seed submitted', async ({ browser }) => {
  const { page, context } = await as(browser, 'ann2');
  await page.goto(`/studies/${MRBENCH_DEMO}/review`);
  const progress = page.getByRole('progressbar');
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  const before = Number(await progress.getAttribute('aria-valuenow'));
  expect(before).toBeGreaterThan(0); // the seed's submissions
  await expect(page.getByRole('button', { name: /Undo last/ })).toHaveCount(0);
  await page.keyboard.press('u');
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await expect(progress).toHaveAttribute('aria-valuenow', String(before));
  // What the reviewer submits here, they can take back — also after a reload of the page.
  const reply = (await page.getByTestId('rubric-reply').textContent())!;
  for (let k = 0; k < 4; k++) await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await expect(progress).toHaveAttribute('aria-valuenow', String(before + 1));
  await page.reload();
  await expect(page.getByRole('button', { name: /Undo last/ })).toBeVisible();
  await page.keyboard.press('u');
  await expect(progress).toHaveAttribute('aria-valuenow', String(before));
  await expect(page.getByTestId('rubric-reply')).toHaveText(reply);
  // Back on the first item of this session: nothing earlier is offered.
  await expect(page.getByRole('button', { name: /Undo last/ })).toHaveCount(0);
  await context.close();
});

test('history rows name a rubric reply by its text and a flow by its id', async ({ browser }) => {
  const rubric = await as(browser, 'ann1');
  await rubric.page.goto(`/studies/${MRBENCH_DEMO}/review/history`);
  const table = rubric.page.getByRole('table', { name: 'My submissions' });
  await expect(table.getByRole('columnheader', { name: 'Reply' })).toBeVisible();
  const rows = table.getByTestId('history-row');
  await expect(rows).toHaveCount(50);
  for (const text of await rows.locator('td:nth-child(2)').allInnerTexts()) expect(text.trim().length, text).toBeGreaterThan(5);
  await expect(table.getByRole('cell', { name: '—', exact: true })).toHaveCount(0);
  await rubric.context.close();

  const flow = await as(browser, EARLY, PASSWORD);
  await flow.page.goto(`/studies/${flows}/review`);
  const id = (await flow.page.getByTestId('flow-id').textContent())!.trim();
  await flow.page.keyboard.press('v');
  await flow.page.keyboard.press('Enter');
  await expect(flow.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  await flow.page.goto(`/studies/${flows}/review/history`);
  const row = flow.page.getByTestId('history-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').first()).toContainText(id);
  await expect(row.getByRole('cell').nth(1)).toContainText('Lena reads 15 pages');
  await flow.context.close();
});

test('the rubric item page keeps its table inside its card and has previous/next and revisions', async ({ browser }) => {
  const { page, context } = await as(browser, 'lead');
  await page.goto(`/studies/${AITUTOR_DEMO}/items`);
  await page
    .getByRole('link', { name: /Gemini$/ })
    .first()
    .click();
  const table = page.getByTestId('rubric-item-labels');
  await expect(table.getByRole('columnheader', { name: /prometheus/ })).toBeVisible();
  const fits = await table.evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth);
  expect(fits).toBe(true);
  const nav = page.getByRole('navigation', { name: 'Items' });
  await expect(nav.getByRole('link', { name: 'Next item' })).toBeVisible();
  await nav.getByRole('link', { name: 'Next item' }).click();
  await expect(nav.getByRole('link', { name: 'Previous item' })).toBeVisible();

  // An item the seed labelled for ann1 and ann2 lists each one's revision with its labels.
  await page.goto(`/studies/${MRBENCH_DEMO}/items`);
  await page
    .getByRole('link', { name: /-Sonnet$/ })
    .first()
    .click();
  const revisions = page.getByTestId('rubric-item-revisions');
  await expect(revisions.getByRole('list', { name: 'Revisions of ann1' })).toContainText(/rev 1 · .* UTC Notices the mistake: /);
  await expect(revisions.getByRole('list', { name: 'Revisions of ann2' })).toContainText('rev 1');
  await context.close();
});

test('"Guidelines updated" goes only to the reviewer who worked under the earlier version', async ({ browser }) => {
  const early = await as(browser, EARLY, PASSWORD);
  const late = await as(browser, LATE, PASSWORD);
  const card = (page: typeof early.page) => page.getByRole('listitem').filter({ hasText: 'UX details flows' });
  await early.page.goto('/');
  await expect(card(early.page)).toBeVisible();
  // EARLY worked on a flow in the test before; they submit one here too, so this test stands alone.
  await early.page.goto(`/studies/${flows}/review`);
  await expect(early.page.getByTestId('flow-id')).toBeVisible();
  const done = Number(await early.page.getByRole('progressbar').getAttribute('aria-valuenow'));
  await early.page.keyboard.press('v');
  await expect(early.page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
  await early.page.keyboard.press('Enter');
  await expect(early.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(done + 1));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-ux-guide-'));
  try {
    const file = path.join(dir, 'guidelines.md');
    fs.writeFileSync(file, '# Version two\n\nCheck the arithmetic of every step.\n');
    concord(['study', 'edit', String(flows), '--guidelines', file]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await early.page.goto('/');
  await expect(card(early.page).getByTestId('guidelines-updated')).toHaveText('Guidelines updated since you started (version 2)');
  await late.page.goto('/');
  await expect(card(late.page)).toBeVisible();
  await expect(card(late.page)).not.toContainText('Guidelines updated');
  await early.context.close();
  await late.context.close();
});
