import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser, DEMO_PASSWORD } from './support/session';
import { tempDir } from '../test/temp-dir';

// The review screens' tools for every kind of item: what is judged in view at 1440×900, the guidelines panel and
// criterion definitions (issue point 4), skip/flag/comment (5), "Review my submissions" with revising (6), the
// tie-the-open-ones key, keys on the buttons and the touch layout (7). The spec makes its own accounts and studies,
// so it does not depend on what other specs did to the demo.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'review-tools-2026';
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const GUIDELINE_LINE = 'Judge only the next tutor turn, never the dialogue before it.';
const DESKTOP = { width: 1440, height: 900 };
let pairStudy = 0;
let flowStudy = 0;

test.beforeAll(() => {
  const dir = tempDir('concord-review-tools-');
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  for (const [username, name] of [
    ['uxa1', 'UX One'],
    ['uxa2', 'UX Two'],
  ])
    concord(['user', 'add', username, '--role', 'annotator', '--name', name], PASSWORD);

  // The three demo pairs and one with long instructions and a long dialogue, which must not push the replies away.
  const pairs = fs.readFileSync(path.join(SEED, 'pairwise.jsonl'), 'utf8').trim().split('\n');
  const long = JSON.parse(pairs[0]) as { id: string; instructions: string; history: { role: string; text: string }[] };
  long.id = 'ux-long-context';
  long.instructions = Array.from({ length: 12 }, (_, i) => `Instruction paragraph ${i + 1}: ${long.instructions}`).join('\n\n');
  long.history = Array.from({ length: 16 }, (_, i) => ({
    role: i % 2 ? 'student' : 'tutor',
    text: `Turn ${i + 1}. ${'The student works through the equal-groups problem step by step. '.repeat(3)}`,
  }));
  const guidelines = write('guidelines.md', `# How to judge\n\n${GUIDELINE_LINE}\n\nPrefer the reply that moves the student on.\n`);
  pairStudy = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX pairs', '--guidelines', guidelines, '--reviewers', '2', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(pairStudy), write('pairs.jsonl', [...pairs, JSON.stringify(long)].join('\n'))]);
  concord(['study', 'members', String(pairStudy), 'uxa1', 'uxa2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(pairStudy)]);

  flowStudy = JSON.parse(
    concord(['study', 'create', '--kind', 'flow_review', '--name', 'UX flows', '--guidelines', guidelines, '--reviewers', '1', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(flowStudy), path.join(SEED, 'flows.jsonl')]);
  concord(['study', 'members', String(flowStudy), 'uxa1']);
  concord(['study', 'open', String(flowStudy)]);
});

function open(
  browser: Browser,
  username: string,
  options: Parameters<Browser['newContext']>[0] = { viewport: DESKTOP },
  password = PASSWORD,
) {
  return asUser(browser, username, password, options);
}

/** The item label of the pairwise screen once a fresh item is on it ("Item 3"). */
async function currentItem(page: Page) {
  const overall = page.getByTestId('criterion-overall');
  await expect(overall.getByRole('radio')).toHaveCount(3);
  return (await page.getByTestId('item-label').textContent())!.trim();
}

/** Top of the fixed bar at the foot of the screen: what is below it is hidden behind it. */
async function barTop(page: Page) {
  return (await page.getByTestId('action-bar').boundingBox())!.y;
}

/** The reply card's header and at least its first lines are on screen, above the fixed bar, without scrolling. */
async function expectInView(page: Page, card: Locator) {
  const box = (await card.boundingBox())!;
  const scrollY = await page.evaluate(() => window.scrollY);
  expect(scrollY).toBe(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP.width);
  // The header (about 40 px) and three lines of text.
  expect(box.y + Math.min(box.height, 110)).toBeLessThanOrEqual(await barTop(page));
  return box;
}

async function judgeAll(page: Page, key: '1' | '2' | '3') {
  await currentItem(page);
  const n = await page.locator('[data-testid^="criterion-"]').count();
  for (let i = 0; i < n; i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
}

test('point 4: both replies are in view on arrival at 1440×900, guidelines stay open, definitions show on hover and focus', async ({
  browser,
}) => {
  const { page, context } = await open(browser, 'uxa1');
  await page.goto(`/studies/${pairStudy}/review`);
  const panel = page.getByTestId('guidelines-panel');
  const seen = new Set<string>();
  let longSeen = false;
  // The panel alternates: items 1 and 3 arrive with it closed, 2 and 4 with it still open from the item before.
  while (seen.size < 4) {
    const label = await currentItem(page);
    expect(seen.has(label)).toBe(false);
    seen.add(label);
    const panelOpen = seen.size % 2 === 0;
    if (panelOpen) await expect(panel).toBeVisible();
    else await expect(panel).toBeHidden();

    for (const mode of [panelOpen, !panelOpen]) {
      const one = await expectInView(page, page.getByTestId('response-1'));
      const two = await expectInView(page, page.getByTestId('response-2'));
      console.log(
        `${label}, guidelines ${mode ? 'open' : 'closed'}: response 1 at y=${Math.round(one.y)}, response 2 at y=${Math.round(two.y)}, bar at y=${Math.round(await barTop(page))}`,
      );
      // Two distinct cards, neither hidden behind the other, nor behind the panel.
      expect(one.y + one.height <= two.y || one.x + one.width <= two.x).toBe(true);
      if (mode) for (const box of [one, two]) expect(box.x + box.width).toBeLessThanOrEqual((await panel.boundingBox())!.x);
      // g: the panel opens or closes, and the keys keep working on the item.
      if (mode === panelOpen) {
        await page.keyboard.press('g');
        if (mode) await expect(panel).toBeHidden();
        else await expect(panel).toContainText(GUIDELINE_LINE);
      }
    }

    // The problem, instructions and dialogue scroll in their own column, the page does not.
    const column = page.getByTestId('item-context');
    if (await column.getByText('Turn 16.').count()) {
      longSeen = true;
      expect(await column.evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 400)).toBe(true);
    }

    if (seen.size === 1) {
      // Definitions: on hover of a criterion's name, and for the focused criterion in the bar.
      const row = page.locator('[data-testid^="criterion-"]').first();
      const tooltip = row.getByTestId('definition-tooltip');
      await expect(tooltip).toBeHidden();
      await row.locator('span[id$="-name"]').hover();
      await expect(tooltip).toBeVisible();
      const definition = (await tooltip.textContent())!.trim();
      expect(definition.length).toBeGreaterThan(10);
      await expect(page.getByTestId('focused-definition')).toHaveText(definition);
      await page.keyboard.press('j');
      await expect(page.getByTestId('focused-definition')).not.toHaveText(definition);
      await page.keyboard.press('k');
    }
    await judgeAll(page, '2');
  }
  expect(longSeen).toBe(true);
  await expect(page.getByTestId('all-done')).toBeVisible();
  await context.close();
});

test('point 5: skip brings the item back at the end, flag and comment are kept, and leads see the flag', async ({ browser }) => {
  const { page, context } = await open(browser, 'uxa2');
  await page.goto(`/studies/${pairStudy}/review`);
  const progress = page.getByRole('progressbar');
  const skipped = await currentItem(page);
  await expect(progress).toHaveAttribute('aria-valuenow', '0');

  // The keys are listed under ?.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const text of ['Skip this item for now', 'Flag this item', 'Write a comment', 'Tie for every open criterion'])
    await expect(help).toContainText(text);
  await page.keyboard.press('?');
  await expect(help).toBeHidden();

  // Flag with a reason (f), then comment (c); a double click on Save stores one comment.
  await page.keyboard.press('f');
  const flagDialog = page.getByRole('dialog', { name: 'Flag this item' });
  await flagDialog.getByLabel('Reason').fill('Response 2 stops mid-sentence.');
  await page.keyboard.press('Control+Enter');
  await expect(flagDialog).toBeHidden();
  await expect(page.getByTestId('flag-reason')).toHaveText('Flagged: Response 2 stops mid-sentence.');
  await page.keyboard.press('c');
  const commentDialog = page.getByRole('dialog', { name: 'Comment on this item' });
  await commentDialog.getByLabel('Comment').fill('Reply 1 is fine otherwise.');
  await commentDialog.getByRole('button', { name: /Save comment/ }).dblclick();
  await expect(commentDialog).toBeHidden();
  await expect(page.getByTestId('item-comment')).toHaveText('Your comment: Reply 1 is fine otherwise.');

  // Skip (s): the next item comes, nothing counts as submitted, and the time spent on the skipped item is kept.
  const skippedId = Number(await page.getByTestId('judge').getAttribute('data-assignment'));
  // The reviewer reads a little longer before skipping: active time worth reporting (more than a second), waited
  // for on the page's own clock from the moment this item was on screen.
  const shownAt = await page.evaluate(() => performance.now());
  await page.waitForFunction((t0) => performance.now() - t0 > 1_500, shownAt);
  await page.keyboard.press('s');
  await expect.poll(() => currentItem(page)).not.toBe(skipped);
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  const db = new Database(process.env.CONCORD_E2E_DB!, { readonly: true });
  try {
    await expect
      .poll(() => (db.prepare('SELECT active_ms FROM assignments WHERE id = ?').pluck().get(skippedId) as number) ?? 0)
      .toBeGreaterThanOrEqual(1000);
    const positions = db
      .prepare(
        `SELECT id FROM assignments WHERE study_id = ? AND user_id = (SELECT user_id FROM assignments WHERE id = ?) ORDER BY queue_position`,
      )
      .pluck()
      .all(pairStudy, skippedId) as number[];
    expect(positions.at(-1)).toBe(skippedId);
  } finally {
    db.close();
  }
  // The other three come first, then the skipped one, still flagged and commented.
  for (let i = 0; i < 3; i++) {
    expect(await currentItem(page)).not.toBe(skipped);
    await judgeAll(page, '1');
    await expect(progress).toHaveAttribute('aria-valuenow', String(i + 1));
  }
  expect(await currentItem(page)).toBe(skipped);
  await expect(page.getByTestId('flag-reason')).toHaveText('Flagged: Response 2 stops mid-sentence.');
  await expect(page.getByTestId('item-comment')).toHaveText('Your comment: Reply 1 is fine otherwise.');
  // The only item left cannot be skipped.
  await expect(page.getByTestId('item-tools').getByRole('button', { name: /Skip/ })).toBeDisabled();
  await judgeAll(page, '1');
  await expect(page.getByTestId('all-done')).toBeVisible();

  // Flow items have the same tools.
  await context.close();
  const flow = await open(browser, 'uxa1');
  await flow.page.goto(`/studies/${flowStudy}/review`);
  const flowId = flow.page.getByTestId('flow-id');
  const before = (await flowId.textContent())!;
  await flow.page.keyboard.press('f');
  await flow.page.getByRole('dialog', { name: 'Flag this item' }).getByLabel('Reason').fill('Step 3 repeats step 2.');
  await flow.page.keyboard.press('Control+Enter');
  await expect(flow.page.getByTestId('flag-reason')).toContainText('Step 3 repeats step 2.');
  await flow.page.keyboard.press('s');
  await expect(flowId).not.toHaveText(before);
  await flow.context.close();

  // The lead sees both flags, who raised them and why, on each study's page.
  const lead = await open(browser, 'lead', { viewport: DESKTOP }, DEMO_PASSWORD);
  await lead.page.goto(`/studies/${pairStudy}`);
  const row = lead.page.getByTestId('flagged-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('UX Two');
  await expect(row).toContainText('Response 2 stops mid-sentence.');
  await expect(row).toContainText('Reply 1 is fine otherwise.');
  await expect(row).toContainText('submitted');
  await lead.page.goto(`/studies/${flowStudy}`);
  await expect(lead.page.getByTestId('flagged-row')).toContainText('Step 3 repeats step 2.');
  await lead.context.close();
});

test('point 6: my submissions, newest first and searchable, open with my labels and revise as a new revision', async ({ browser }) => {
  const { page, context } = await open(browser, 'uxa1');
  await page.goto(`/studies/${pairStudy}/review`);
  await page.getByRole('link', { name: 'Review my submissions' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${pairStudy}/review/history`));
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(4);
  const times = await rows.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
  expect([...times].sort().reverse()).toEqual(times);

  // Search by item number, then by words of the problem; a source name finds nothing.
  const oldest = rows.last();
  const label = (await oldest.getByRole('link').textContent())!.trim();
  const number = label.replace('Item ', '');
  await page.getByLabel('Search my submissions').fill(number);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows.getByRole('link', { name: label })).toBeVisible();
  await page.getByLabel('Search my submissions').fill('pizza');
  await page.getByRole('button', { name: 'Search' }).click();
  // Two of the four problems are about a pizza.
  await expect(page.getByTestId('history-count')).toHaveText('2 submissions matching “pizza”, newest first.');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Search my submissions').fill('model-x');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(0);
  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(4);

  // Open the oldest: it shows my labels (all ties, from the first test).
  await rows.last().getByRole('link').click();
  await expect(page.getByTestId('submission-view')).toBeVisible();
  await expect(page.getByTestId('my-label-overall')).toContainText('Tie');
  await expect(page.getByTestId('submission-view')).toContainText('revision 1');
  await page.getByRole('button', { name: 'Revise' }).dblclick();

  // Back on the review screen with that item first and my labels filled in; change overall and submit.
  await expect(page).toHaveURL(new RegExp(`/studies/${pairStudy}/review$`));
  await expect(page.getByTestId('item-label')).toHaveText(label);
  const overall = page.getByTestId('criterion-overall');
  await expect(overall.getByRole('radio', { name: /Tie/ })).toBeChecked();
  // The submission still counts while it is revised.
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '4');
  await expect(page.getByTestId('revising-banner')).toBeVisible();
  await overall.getByText('Response 1 better').click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();
  await page.goto(`/studies/${pairStudy}/review/history`);
  await expect(rows.first().getByRole('link')).toHaveText(label);
  await expect(rows.first().locator('td').last()).toHaveText('2');
  await rows.first().getByRole('link').click();
  await expect(page.getByTestId('my-label-overall')).toContainText('Response 1 better');
  await context.close();
});

test('point 7: t ties the open criteria of the focused group, keys are on the buttons, and touch screens get no key hints', async ({
  browser,
}) => {
  // A study of its own with one reviewer, so the queue is fresh.
  concord(['user', 'add', 'uxa3', '--role', 'annotator', '--name', 'UX Three'], PASSWORD);
  const s = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX ties', '--reviewers', '1', '--json'])).id as number;
  concord(['import', 'items', '--study', String(s), path.join(SEED, 'pairwise.jsonl')]);
  concord(['study', 'members', String(s), 'uxa3']);
  concord(['study', 'open', String(s)]);

  const { page, context } = await open(browser, 'uxa3');
  await page.goto(`/studies/${s}/review`);
  await currentItem(page);
  // The focused row shows 1, 2, 3 on its buttons.
  const focused = page.locator('[data-testid^="criterion-"][aria-current="true"]');
  for (const key of ['1', '2', '3']) await expect(focused.locator('kbd', { hasText: new RegExp(`^${key}$`) })).toBeVisible();
  await expect(page.getByRole('button', { name: /Skip/ }).locator('kbd')).toHaveText('s');

  // Choose the first criterion of the first group, then t: the rest of that group becomes Tie, other groups stay open.
  const group = page.getByRole('group').first();
  const groupRows = group.locator('[data-testid^="criterion-"]');
  const n = await groupRows.count();
  expect(n).toBeGreaterThan(2);
  await page.keyboard.press('1');
  await page.keyboard.press('t');
  await expect(groupRows.first().getByRole('radio', { name: /Response 1 better/ })).toBeChecked();
  for (let i = 1; i < n; i++) await expect(groupRows.nth(i).getByRole('radio', { name: /Tie/ })).toBeChecked();
  await expect(page.getByTestId('criterion-overall').getByRole('radio', { checked: true })).toHaveCount(0);
  const bar = page.getByTestId('action-bar');
  const desktopBar = (await bar.boundingBox())!.height;
  await context.close();

  // A phone: no key hints anywhere, no shortcut button, and a smaller bar.
  const phone = await open(browser, 'uxa3', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  expect(await phone.page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
  await phone.page.goto(`/studies/${s}/review`);
  await currentItem(phone.page);
  const visibleKbd = await phone.page.locator('kbd').evaluateAll((els) => els.filter((e) => e.checkVisibility()).length);
  expect(visibleKbd).toBe(0);
  await expect(phone.page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeHidden();
  const phoneBar = phone.page.getByTestId('action-bar');
  const padding = await phoneBar.evaluate((el) => parseFloat(getComputedStyle(el).paddingTop));
  expect(padding).toBeLessThan(12);
  expect((await phoneBar.boundingBox())!.height).toBeLessThan(844 * 0.25);
  console.log(`action bar height: desktop ${Math.round(desktopBar)} px, phone ${Math.round((await phoneBar.boundingBox())!.height)} px`);
  await phone.context.close();
});
