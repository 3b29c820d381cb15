import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { createRubricStudy, mrbenchSlice } from './support/rubric-study';
import { asUser, DEMO_PASSWORD } from './support/session';
import { tempDir } from '../test/temp-dir';

// Issue 26, point 2, at the sizes where it failed: at 1280×720 every rubric dimension's buttons can be pressed above
// the action bar (MRBench V3, 4 dimensions and more); a 390 px window without touch has no sideways scrolling; on a
// touch phone the first thing to judge is on screen on arrival.

const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
let rubric = 0;
let rubric8 = 0;
let pairs = 0;
let flows = 0;

test.beforeAll(() => {
  // The rubric study's reviewers are the demo's ann1 and ann2 (e2e/support/rubric-study.ts); the others' too.
  rubric = createRubricStudy('UX small rubric', mrbenchSlice(1, ['Sonnet', 'GPT4']));
  // MRBench V1: eight dimensions, with guidelines, so the panel can take the right of the screen.
  const dir = tempDir('concord-ux-small-');
  const guidelines = path.join(dir, 'guidelines.md');
  fs.writeFileSync(guidelines, '# Labelling\n\nLabel each dimension on the reply alone.\n');
  const items = path.join(dir, 'items.jsonl');
  fs.writeFileSync(
    items,
    mrbenchSlice(1, ['Sonnet', 'GPT4'])
      .map((i) => JSON.stringify(i))
      .join('\n') + '\n',
  );
  rubric8 = JSON.parse(
    concord([
      'study',
      'create',
      '--kind',
      'rubric',
      '--dimensions',
      'mrbench-v1',
      '--reviewers',
      '1',
      '--name',
      'UX eight',
      '--guidelines',
      guidelines,
      '--json',
    ]),
  ).id;
  concord(['import', 'items', '--study', String(rubric8), items]);
  concord(['study', 'members', String(rubric8), 'ann1']);
  concord(['study', 'open', String(rubric8)]);
  pairs = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX small pairs', '--reviewers', '2', '--json'])).id;
  concord(['import', 'items', '--study', String(pairs), path.join(SEED, 'pairwise.jsonl')]);
  concord(['study', 'members', String(pairs), 'ann1', 'ann2']);
  concord(['study', 'open', String(pairs)]);
  flows = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'UX small flows', '--reviewers', '2', '--json'])).id;
  concord(['import', 'items', '--study', String(flows), path.join(SEED, 'flows.jsonl')]);
  concord(['study', 'members', String(flows), 'ann1', 'ann2']);
  concord(['study', 'open', String(flows)]);
  expect(fs.existsSync(path.join(SEED, 'flows.jsonl'))).toBe(true);
});

function open(browser: Browser, username: string, options: Parameters<Browser['newContext']>[0]) {
  return asUser(browser, username, DEMO_PASSWORD, options);
}

const barTop = async (page: Page, name: string) => (await page.getByRole('region', { name }).boundingBox())!.y;

test('at 1280×720 every rubric dimension can be labelled by pointer above the action bar, guidelines closed and open', async ({
  browser,
}) => {
  const { page, context } = await open(browser, 'ann1', { viewport: { width: 1280, height: 720 } });
  for (const [study, panel] of [
    [rubric, false],
    [rubric8, false],
    [rubric8, true],
  ] as const) {
    await page.goto(`/studies/${study}/review`);
    const rows = page.getByTestId('dimensions').locator('[data-testid^="dimension-"]');
    await expect(rows.first()).toBeVisible();
    if (panel !== (await page.getByTestId('guidelines-panel').isVisible())) await page.keyboard.press('g');
    await expect(page.getByTestId('guidelines-panel')).toBeVisible({ visible: panel });
    const n = await rows.count();
    expect(n).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < n; i++) {
      const k = await rows.nth(i).getByRole('radio').count();
      const radio = rows
        .nth(i)
        .getByRole('radio')
        .nth(k - 1);
      const button = rows
        .nth(i)
        .locator('label')
        .nth(k - 1);
      // A click lands only on what is on top: a button under the bar or the panel times out here.
      await button.click({ timeout: 5_000 });
      await expect(radio).toBeChecked();
      const box = (await button.boundingBox())!;
      expect(box.y + box.height, `dimension ${i + 1} of ${n}`).toBeLessThanOrEqual(await barTop(page, 'Submit'));
    }
  }
  await context.close();
});

test('a 390 px window without touch does not scroll sideways on the review screens and My work', async ({ browser }) => {
  const { page, context } = await open(browser, 'ann1', { viewport: { width: 390, height: 844 } });
  for (const url of ['/', `/studies/${pairs}/review`, `/studies/${rubric}/review`, `/studies/${flows}/review`]) {
    await page.goto(url);
    await expect(page.getByTestId('signed-in-as')).toBeAttached();
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${url} is ${width} px wide`).toBeLessThanOrEqual(390);
    if (url === '/') continue;
    // The shortcuts dialog fits too.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    const box = (await help.boundingBox())!;
    expect(box.x, `${url}: the shortcuts start at x=${box.x}`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${url}: the shortcuts end at x=${box.x + box.width}`).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
  }
  await context.close();
});

test('on a touch phone the first thing to judge is on screen on arrival', async ({ browser }) => {
  const { page, context } = await open(browser, 'ann2', PHONE);
  const inView = async (what: string, locator: ReturnType<Page['getByTestId']>, bar: string) => {
    await expect(locator).toBeVisible();
    const box = (await locator.boundingBox())!;
    const top = await barTop(page, bar);
    console.log(`${what}: top at y=${Math.round(box.y)}, bar at y=${Math.round(top)}`);
    expect(box.y).toBeGreaterThanOrEqual(0);
    // Its first lines at least, above the bar.
    expect(box.y + 40).toBeLessThanOrEqual(top);
  };
  await page.goto(`/studies/${flows}/review`);
  await inView('flow step 1', page.getByTestId('step-1'), 'Decision');
  await page.goto(`/studies/${pairs}/review`);
  await inView('pairwise response 1', page.getByTestId('response-1'), 'Submit');
  await page.goto(`/studies/${rubric}/review`);
  await inView('rubric reply', page.getByTestId('rubric-reply'), 'Submit');
  await context.close();
});
