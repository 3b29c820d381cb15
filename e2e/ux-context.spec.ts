import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { signInContext } from './support/session';
import { tempDir } from '../test/temp-dir';

// Issue 26, point 1: the pairwise screen opens its context column at the student's last turn (what the first
// criterion asks about), with the guidelines panel closed and open, at 1440×900 where it was hidden.

const PASSWORD = 'ux-context-2026';
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
let study = 0;

test.beforeAll(() => {
  const dir = tempDir('concord-ux-context-');
  concord(['user', 'add', 'uxctx', '--role', 'annotator'], PASSWORD);
  const guidelines = path.join(dir, 'guidelines.md');
  fs.writeFileSync(guidelines, '# How to judge\n\nPrefer the reply that moves the student on. Press `i` for a definition.\n');
  // One pair whose dialogue is long enough that its last turn cannot be in view unless the column opens at its end.
  const pair = JSON.parse(fs.readFileSync(SEED, 'utf8').split('\n')[0]) as { id: string; history: { role: string; text: string }[] };
  pair.id = 'ux-context-long';
  pair.history = Array.from({ length: 12 }, (_, i) => ({
    role: i % 2 ? 'student' : 'tutor',
    text: `Turn ${i + 1}. ${'The student works through the equal-groups problem step by step. '.repeat(3)}`,
  }));
  const items = path.join(dir, 'pairs.jsonl');
  fs.writeFileSync(items, JSON.stringify(pair) + '\n');
  study = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX context', '--guidelines', guidelines, '--reviewers', '1', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(study), items]);
  concord(['study', 'members', String(study), 'uxctx']);
  concord(['study', 'open', String(study)]);
});

/** The student's last turn shows inside the context column and above the action bar. */
async function expectLastTurnInView(page: Page) {
  const column = page.getByTestId('item-context');
  const turn = column.getByText('Turn 12.');
  await expect(turn).toBeAttached();
  await expect(async () => {
    const box = (await column.boundingBox())!;
    const last = (await turn.boundingBox())!;
    const bar = (await page.getByTestId('action-bar').boundingBox())!.y;
    const visibleBottom = Math.min(box.y + box.height, bar);
    // The turn's first line at least lies within what the column shows of itself, above the bar.
    expect(last.y).toBeGreaterThanOrEqual(box.y - 1);
    expect(last.y + 20).toBeLessThanOrEqual(visibleBottom);
  }).toPass({ timeout: 5_000 });
}

test('the pairwise context opens at the last turn at 1440×900, with the guidelines closed and open', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'uxctx', PASSWORD);
  await page.goto(`/studies/${study}/review`);
  await expect(page.getByTestId('criterion-overall').getByRole('radio')).toHaveCount(3);
  await expect(page.getByTestId('guidelines-panel')).toBeHidden();
  await expectLastTurnInView(page);

  await page.keyboard.press('g');
  await expect(page.getByTestId('guidelines-panel')).toBeVisible();
  await expectLastTurnInView(page);

  // A reload with the panel remembered open arrives the same way.
  await page.reload();
  await expect(page.getByTestId('guidelines-panel')).toBeVisible();
  await expectLastTurnInView(page);
  await context.close();
});

// Issue 26, point 8: inline code in the guidelines shows without the backticks around it.
test('inline code in the guidelines has no backticks drawn around it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInContext(page.context(), 'uxctx', PASSWORD);
  await page.goto(`/studies/${study}/review`);
  const panel = page.getByTestId('guidelines-panel');
  if (!(await panel.isVisible())) await page.keyboard.press('g');
  const code = panel.locator('code', { hasText: 'i' });
  await expect(code).toHaveText('i');
  const marks = await code.evaluate((el) => [getComputedStyle(el, '::before').content, getComputedStyle(el, '::after').content]);
  expect(marks).toEqual(['none', 'none']);
  await context.close();
});
