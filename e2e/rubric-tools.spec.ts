import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { createRubricStudy, mrbenchSlice } from './support/rubric-study';
import { asUser, DEMO_PASSWORD } from './support/session';
import { tempDir } from '../test/temp-dir';

// The shared review tools on the rubric screen (skip, flag, comment, guidelines panel, history and revise), what
// leads see of flags on the rubric items list and item page, and combining rubric judge runs in the browser.
test.describe.configure({ mode: 'serial' });

const DIMS = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
// Two MRBench V3 dialogues, three tutors each: six replies in two groups of three.
const ITEMS = mrbenchSlice(2, ['Sonnet', 'GPT4', 'Llama31405B']);
const GUIDELINE_LINE = 'A reply identifies the mistake when it names what the student got wrong.';
const FLAG = 'The reply repeats the question only.';
const COMMENT = 'Location is arguable here.';

let studyId = 0;

function tmpFile(name: string, content: string) {
  const file = path.join(tempDir('concord-e2e-rtools-'), name);
  fs.writeFileSync(file, content);
  return file;
}

function at1440(browser: Browser, username: string) {
  return asUser(browser, username, DEMO_PASSWORD, { viewport: { width: 1440, height: 900 } });
}

async function freshItem(page: Page) {
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  await expect(page.getByTestId('dimensions').getByRole('radio', { checked: true })).toHaveCount(0);
}

/** The reply, the tools and every dimension row lie in the viewport above the submit bar, left of the guidelines. */
async function expectAllInView(page: Page, panelOpen: boolean) {
  const bar = (await page.getByRole('region', { name: 'Submit' }).boundingBox())!;
  const panel = panelOpen ? (await page.getByTestId('guidelines-panel').boundingBox())! : null;
  const boxes = [await page.getByTestId('item-tools').boundingBox(), await page.getByTestId('rubric-reply').boundingBox()];
  for (const d of DIMS) boxes.push(await page.getByTestId(`dimension-${d}`).boundingBox());
  for (const b of boxes) {
    expect(b).not.toBeNull();
    expect(b!.y).toBeGreaterThanOrEqual(0);
    expect(b!.y + b!.height).toBeLessThanOrEqual(bar.y);
    if (panel) expect(b!.x + b!.width).toBeLessThanOrEqual(panel.x);
  }
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const last = boxes.at(-1)!;
  console.log(
    `rubric at 1440×900, guidelines ${panelOpen ? `open from x=${Math.round(panel!.x)}` : 'closed'}: tools at y=${Math.round(boxes[0]!.y)}, ` +
      `reply ${Math.round(boxes[1]!.y)}–${Math.round(boxes[1]!.y + boxes[1]!.height)}, last dimension ends at ${Math.round(last.y + last.height)}, ` +
      `bar at y=${Math.round(bar.y)}, right edge of the item ${Math.round(Math.max(...boxes.map((b) => b!.x + b!.width)))}`,
  );
}

async function labelAll(page: Page, key: string) {
  for (let k = 0; k < DIMS.length; k++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
}

test('the rubric screen has skip, flag, comment and the guidelines panel at 1440×900; leads find the flag on the items list and item page', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  expect(ITEMS).toHaveLength(6);
  studyId = createRubricStudy('Rubric tools e2e', ITEMS);
  concord(['study', 'edit', String(studyId), '--guidelines', tmpFile('guidelines.md', `# Labelling replies\n\n${GUIDELINE_LINE}\n`)]);

  const { page, context } = await at1440(browser, 'ann1');
  await page.goto(`/studies/${studyId}/review`);
  await freshItem(page);
  await expect(page.getByTestId('group-position')).toHaveText('reply 1 of 3 in this dialogue');
  await expectAllInView(page, false);
  await page.keyboard.press('g');
  await expect(page.getByTestId('guidelines-panel')).toContainText(GUIDELINE_LINE);
  await expectAllInView(page, true);

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const text of [
    'Skip this item for now',
    'Flag this item',
    'Write a comment',
    'Show or hide the guidelines',
    'Label the focused dimension',
  ])
    await expect(help).toContainText(text);
  await page.keyboard.press('?');
  await expect(help).toBeHidden();

  // Flag (f) and comment (c) the first reply, then skip it (s).
  // The reply's own text, without its heading and place in the dialogue (which changes once it is skipped).
  const replyText = async (p: Page) => (await p.getByTestId('rubric-reply').textContent())!.replace(/^.*in this dialogue/, '');
  const skippedReply = await replyText(page);
  const dialogue = (await page.getByTestId('rubric-dialogue').textContent())!;
  const flagDialog = page.getByRole('dialog', { name: 'Flag this item' });
  // Under load a key pressed while the ? list is still closing can be taken by it; press again only then.
  await expect(async () => {
    if (!(await flagDialog.isVisible())) await page.keyboard.press('f');
    await expect(flagDialog).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await flagDialog.getByLabel('Reason').fill(FLAG);
  await page.keyboard.press('Control+Enter');
  await expect(flagDialog).toBeHidden();
  await expect(page.getByTestId('flag-reason')).toHaveText(`Flagged: ${FLAG}`);
  await page.keyboard.press('c');
  const commentDialog = page.getByRole('dialog', { name: 'Comment on this item' });
  await commentDialog.getByLabel('Comment').fill(COMMENT);
  await commentDialog.getByRole('button', { name: /Save comment/ }).click();
  await expect(commentDialog).toBeHidden();
  await expect(page.getByTestId('item-comment')).toHaveText(`Your comment: ${COMMENT}`);
  // A label chosen before skipping is kept as the draft for when the reply comes back.
  await page.keyboard.press('1');
  await expect(page.getByText('Draft saved.')).toBeVisible();
  await page.keyboard.press('s');

  // The next reply of the same dialogue comes, now the first of three; the skipped one will be the dialogue's last.
  await expect(page.getByTestId('rubric-reply')).not.toContainText(skippedReply);
  await freshItem(page);
  await expect(page.getByTestId('group-position')).toHaveText('reply 1 of 3 in this dialogue');
  await expect(page.getByTestId('rubric-dialogue')).toHaveText(dialogue);
  await expect(page.getByTestId('flag-reason')).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  await expectAllInView(page, true);
  for (let i = 1; i <= 5; i++) {
    await freshItem(page);
    await labelAll(page, '3');
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  // The skipped reply is back last, with its dialogue, its draft, its flag and comment; nothing is left to skip to.
  await expect(page.getByTestId('rubric-reply')).toContainText(skippedReply);
  await expect(page.getByTestId('rubric-dialogue')).toHaveText(dialogue);
  await expect(page.getByTestId('group-position')).toHaveText('reply 3 of 3 in this dialogue');
  await expect(page.getByTestId(`dimension-${DIMS[0]}`).getByRole('radio', { name: 'No' })).toBeChecked();
  await expect(page.getByTestId('flag-reason')).toHaveText(`Flagged: ${FLAG}`);
  await expect(page.getByTestId('item-comment')).toHaveText(`Your comment: ${COMMENT}`);
  await expect(page.getByTestId('item-tools').getByRole('button', { name: /Skip/ })).toBeDisabled();
  for (let k = 1; k < DIMS.length; k++) await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();
  await context.close();

  // The other reviewer sees nothing of ann1's flag or comment on any of their replies.
  const two = await at1440(browser, 'ann2');
  await two.page.goto(`/studies/${studyId}/review`);
  for (let i = 1; i <= ITEMS.length; i++) {
    await freshItem(two.page);
    await expect(two.page.getByTestId('item-tools')).toBeVisible();
    await expect(two.page.getByTestId('flag-reason')).toHaveCount(0);
    await expect(two.page.getByTestId('item-comment')).toHaveCount(0);
    // ann2 disagrees with ann1 on actionability of the reply ann1 flagged.
    const key = (await replyText(two.page)) === skippedReply ? '2' : '3';
    for (let k = 0; k < DIMS.length; k++) await two.page.keyboard.press(k === 0 && key === '2' ? '1' : key);
    await two.page.keyboard.press('Enter');
    await expect(two.page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(two.page.getByTestId('all-done')).toBeVisible();
  await two.context.close();

  // The lead: "Only flagged" on the items list keeps the flagged reply; its page shows who flagged it and why.
  const lead = await at1440(browser, 'lead');
  await lead.page.goto(`/studies/${studyId}/items`);
  const list = lead.page.getByTestId('rubric-item-list');
  await expect(list.locator('tbody tr')).toHaveCount(ITEMS.length);
  await lead.page.getByLabel('Only flagged by a reviewer').check();
  await lead.page.getByRole('button', { name: 'Filter' }).click();
  await expect(lead.page).toHaveURL(/flagged=1/);
  await expect(lead.page.getByTestId('item-count')).toHaveText('1 item');
  await expect(list.locator('tbody tr')).toHaveCount(1);
  await list.locator('tbody tr').getByRole('link').first().click();
  const remarks = lead.page.getByTestId('remarks-ann1');
  await expect(remarks).toContainText(`Flagged`);
  await expect(remarks).toContainText(FLAG);
  await expect(remarks).toContainText(`Comment: ${COMMENT}`);
  await expect(lead.page.getByTestId('remarks-ann2')).toHaveCount(0);
  await lead.context.close();
});

test('rubric history: my submissions newest first, shown with my labels, and Revise brings the labels back as the draft', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { page, context } = await at1440(browser, 'ann1');
  await page.goto(`/studies/${studyId}/review`);
  await page.getByRole('link', { name: 'Review my submissions' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/review/history`));
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(ITEMS.length);
  const times = await rows.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
  expect([...times].sort().reverse()).toEqual(times);

  // The newest is the skipped reply: No, then Yes on the three others; the tutor's name is nowhere.
  await rows.first().getByRole('link').click();
  const view = page.getByTestId('submission-view');
  await expect(view).toContainText('revision 1');
  await expect(page.getByTestId(`my-label-${DIMS[0]}`)).toContainText('No');
  for (const d of DIMS.slice(1)) await expect(page.getByTestId(`my-label-${d}`)).toContainText('Yes');
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  await expect(page.getByTestId('rubric-dialogue')).toBeVisible();
  for (const tutor of ['Sonnet', 'GPT4', 'Llama31405B']) await expect(view).not.toContainText(tutor);
  const label = (await view.getByTestId('item-label').textContent())!;

  await page.getByRole('button', { name: 'Revise' }).dblclick();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/review$`));
  await expect(page.getByTestId('item-label')).toHaveText(label);
  // The submission still counts while it is revised.
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(ITEMS.length));
  await expect(page.getByTestId('revising-banner')).toBeVisible();
  const first = page.getByTestId(`dimension-${DIMS[0]}`);
  await expect(first.getByRole('radio', { name: 'No' })).toBeChecked();
  await expect(page.getByTestId('dimensions').getByRole('radio', { name: 'Yes', checked: true })).toHaveCount(3);
  await first.getByRole('radio', { name: 'To some extent' }).click({ force: true });
  await expect(first.getByRole('radio', { name: 'To some extent' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();

  await page.goto(`/studies/${studyId}/review/history`);
  await expect(rows.first().getByRole('link')).toHaveText(label);
  await expect(rows.first().locator('td').last()).toHaveText('2');
  await rows.first().getByRole('link').click();
  await expect(page.getByTestId(`my-label-${DIMS[0]}`)).toContainText('To some extent');
  await expect(page.getByTestId('submission-view')).toContainText('revision 2');
  await context.close();
});

test('a lead combines two rubric judge runs on the study page and the rubric alignment dashboard offers the new run', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // g1 says Yes on every reply's first dimension, g2 only on the second dialogue's replies.
  const verdicts: Record<string, string[]> = {
    g1: ITEMS.map(() => 'Yes'),
    g2: ITEMS.map((_, k) => (k < 3 ? 'No' : 'Yes')),
  };
  for (const [run, labels] of Object.entries(verdicts)) {
    const file = tmpFile(
      `${run}.jsonl`,
      labels.map((l, k) => JSON.stringify({ item: ITEMS[k].id, judge: run, labels: { mistake_identification: l } })).join('\n') + '\n',
    );
    concord(['import', 'judge', '--study', String(studyId), '--judge', run, file]);
  }

  const { page, context } = await at1440(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  await expect(page.getByTestId('judge-run-row')).toHaveCount(2);
  const form = page.getByTestId('combine-runs-form');
  const button = form.getByRole('button', { name: 'Combine runs' });
  await expect(button).toBeDisabled();
  for (const run of ['g1', 'g2']) await form.getByRole('checkbox', { name: run, exact: true }).check();
  await form.getByLabel('Rule').selectOption('all');
  await form.getByLabel('Name of the new run').fill('all of g');
  await button.click();
  await expect(form.getByTestId('combine-result')).toContainText('Run “all of g” created');
  const row = page.getByTestId('judge-run-row').filter({ hasText: 'all of g' });
  await expect(row).toContainText(String(ITEMS.length));
  await expect(row.getByTestId('judge-run-recipe')).toHaveText(
    `Combined by all (the desired label only where every verdict gave it) from g1, g2: ${ITEMS.length} of ${ITEMS.length} item × criterion pairs got a verdict.`,
  );

  await page.goto(`/studies/${studyId}/analytics/alignment`);
  const select = page.getByTestId('judge-select');
  await expect(select.getByRole('option', { name: new RegExp(`^all of g — ${ITEMS.length} verdicts`) })).toHaveCount(1);
  await select.selectOption('all of g');
  await expect(page).toHaveURL(/judge=all/);
  await context.close();
});

test('pairwise too: the items list keeps only flagged items and the item page shows the flag and comment to the lead', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { id } = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Flagged pairs e2e', '--reviewers', '2', '--json']),
  );
  const items = ['fp1', 'fp2', 'fp3'].map((item) =>
    JSON.stringify({
      id: item,
      problem: `What is 6 × 7? (${item})`,
      a: { source: 'm', text: 'Forty-two.' },
      b: { source: 'ref', text: 'Count by sevens.' },
    }),
  );
  concord(['import', 'items', '--study', String(id), tmpFile('pairs.jsonl', items.join('\n') + '\n')]);
  concord(['study', 'members', String(id), 'ann1', 'ann2']);
  concord(['study', 'open', String(id)]);

  const { page, context } = await at1440(browser, 'ann1');
  await page.goto(`/studies/${id}/review`);
  const label = (await page.getByTestId('item-label').textContent())!;
  await page.keyboard.press('f');
  await page.getByRole('dialog', { name: 'Flag this item' }).getByLabel('Reason').fill('Both replies give the answer away.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('flag-reason')).toHaveText('Flagged: Both replies give the answer away.');
  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Comment on this item' });
  await dialog.getByLabel('Comment').fill('Response 1 is terse.');
  await dialog.getByRole('button', { name: /Save comment/ }).click();
  await expect(page.getByTestId('item-comment')).toHaveText('Your comment: Response 1 is terse.');
  await context.close();

  const lead = await at1440(browser, 'lead');
  await lead.page.goto(`/studies/${id}/items`);
  await expect(lead.page.getByTestId('item-count')).toHaveText('3 items');
  await lead.page.getByLabel('Only flagged by a reviewer').check();
  await lead.page.getByRole('button', { name: 'Filter' }).click();
  await expect(lead.page).toHaveURL(/flagged=1/);
  await expect(lead.page.getByTestId('item-count')).toHaveText('1 item');
  // The filter stays checked on the filtered page.
  await expect(lead.page.getByLabel('Only flagged by a reviewer')).toBeChecked();
  await lead.page.locator('table tbody tr').getByRole('link').first().click();
  await expect(lead.page.getByRole('heading', { level: 1 })).toContainText(label);
  const remarks = lead.page.getByTestId('remarks-ann1');
  await expect(remarks).toContainText('Both replies give the answer away.');
  await expect(remarks).toContainText('Comment: Response 1 is terse.');
  await expect(lead.page.getByTestId('remarks-ann2')).toHaveCount(0);
  await lead.context.close();
});
