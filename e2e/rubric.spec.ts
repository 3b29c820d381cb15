import fs from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { createRubricStudy, mrbenchSlice } from './support/rubric-study';
import { asUser, DEMO_PASSWORD } from './support/session';

test.describe.configure({ mode: 'serial' });

const DIMS = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
// Two MRBench V3 dialogues, three tutors each: six replies in two groups of three.
const ITEMS = mrbenchSlice(2, ['Sonnet', 'GPT4', 'Llama31405B']);

function at1440(browser: Browser, username: string) {
  return asUser(browser, username, DEMO_PASSWORD, { viewport: { width: 1440, height: 900 } });
}

/** Waits for an item with nothing labelled yet. */
async function freshItem(page: Page) {
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  await expect(page.getByTestId('dimensions').getByRole('radio', { checked: true })).toHaveCount(0);
}

/** The reply and every dimension row lie inside the viewport, above the fixed submit bar: nothing to scroll to. */
async function expectAllInView(page: Page) {
  const bar = await page.getByRole('region', { name: 'Submit' }).boundingBox();
  expect(bar).not.toBeNull();
  const boxes = [await page.getByTestId('rubric-reply').boundingBox()];
  for (const d of DIMS) boxes.push(await page.getByTestId(`dimension-${d}`).boundingBox());
  for (const b of boxes) {
    expect(b).not.toBeNull();
    expect(b!.y).toBeGreaterThanOrEqual(0);
    expect(b!.y + b!.height).toBeLessThanOrEqual(bar!.y);
  }
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const last = boxes[boxes.length - 1]!;
  console.log(
    `layout at 1440×900: reply ${Math.round(boxes[0]!.y)}–${Math.round(boxes[0]!.y + boxes[0]!.height)} px, last dimension ends at ` +
      `${Math.round(last.y + last.height)} px, submit bar starts at ${Math.round(bar!.y)} px`,
  );
}

test('two annotators label MRBench replies by keyboard, the adjudicator settles a disagreement, the lead exports ground truth', async ({
  browser,
}) => {
  // Two reviewers, an adjudicator and a lead in one path through the app, on a machine shared with others.
  test.setTimeout(150_000);
  expect(ITEMS).toHaveLength(6);
  const studyId = createRubricStudy('MRBench rubric e2e', ITEMS);
  const one = await at1440(browser, 'ann1');
  const two = await at1440(browser, 'ann2');

  // ann1: the screen, the layout at 1440×900, the help, a draft across a reload.
  const p1 = one.page;
  await p1.goto(`/studies/${studyId}/review`);
  await freshItem(p1);
  await expect(p1.getByTestId('group-position')).toHaveText('reply 1 of 3 in this dialogue');
  await expect(p1.getByTestId(`dimension-${DIMS[0]}`).getByRole('radio')).toHaveCount(3);
  await expect(p1.getByTestId(`dimension-${DIMS[0]}`)).toContainText('1No');
  await expectAllInView(p1);
  // The dialogue opens at its last turn, the one the reply answers.
  await expect
    .poll(() => p1.getByTestId('rubric-dialogue').evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop))
    .toBeLessThanOrEqual(1);
  await p1.keyboard.press('?');
  await expect(p1.getByRole('dialog')).toContainText('Label the focused dimension');
  await p1.keyboard.press('Escape');
  await expect(p1.getByRole('dialog')).toHaveCount(0);
  const firstReply = (await p1.getByTestId('rubric-reply').textContent())!;
  await p1.keyboard.press('1');
  await expect(p1.getByText('Draft saved.')).toBeVisible();
  await p1.reload();
  await expect(p1.getByTestId('rubric-reply')).toHaveText(firstReply);
  await expect(p1.getByTestId(`dimension-${DIMS[0]}`).getByRole('radio', { name: 'No' })).toBeChecked();
  // The draft kept the focus on the next dimension: three Yes, then back up to the first and make it Yes too.
  for (let i = 0; i < 3; i++) await p1.keyboard.press('3');
  for (let i = 0; i < 3; i++) await p1.keyboard.press('k');
  await p1.keyboard.press('3');
  await expect(p1.getByTestId('dimensions').getByRole('radio', { name: 'Yes', checked: true })).toHaveCount(4);
  await p1.keyboard.press('n');
  const note = p1.getByLabel('Note (optional)');
  await expect(note).toBeFocused();
  await p1.keyboard.type('Hard to say where the mistake is.');
  await p1.keyboard.press('Escape');
  // Enter in the note would be a new line: the keys reach the screen again once the note has let go of the focus.
  await expect(note).not.toBeFocused();
  // Mark the dialogue's element: it must stay the same while the group's replies follow one another.
  await p1.getByTestId('rubric-dialogue').evaluate((el) => el.setAttribute('data-kept', 'yes'));
  await p1.keyboard.press('Enter');
  await expect(p1.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  for (let i = 2; i <= ITEMS.length; i++) {
    await freshItem(p1);
    const n = ((i - 1) % 3) + 1;
    await expect(p1.getByTestId('group-position')).toHaveText(`reply ${n} of 3 in this dialogue`);
    if (n === 1) await expect(p1.getByTestId('rubric-dialogue')).not.toHaveAttribute('data-kept', 'yes');
    else await expect(p1.getByTestId('rubric-dialogue')).toHaveAttribute('data-kept', 'yes');
    if (i === 4) await p1.getByTestId('rubric-dialogue').evaluate((el) => el.setAttribute('data-kept', 'yes'));
    for (let k = 0; k < DIMS.length; k++) await p1.keyboard.press('3');
    await p1.keyboard.press('Enter');
    await expect(p1.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(p1.getByTestId('all-done')).toBeVisible();
  // u takes the last one back, labels kept; Enter submits it again.
  await p1.keyboard.press('u');
  await expect(p1.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(ITEMS.length - 1));
  await expect(p1.getByTestId('dimensions').getByRole('radio', { name: 'Yes', checked: true })).toHaveCount(4);
  await p1.keyboard.press('Enter');
  await expect(p1.getByTestId('all-done')).toBeVisible();

  // ann2 agrees everywhere but on actionability of their first reply; a double Enter writes one annotation.
  const p2 = two.page;
  await p2.goto(`/studies/${studyId}/review`);
  await freshItem(p2);
  for (const key of ['3', '3', '3', '1']) await p2.keyboard.press(key);
  await p2.keyboard.press('Enter');
  await expect(p2.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  await freshItem(p2);
  for (let k = 0; k < DIMS.length; k++) await p2.keyboard.press('3');
  await p2.keyboard.press('Enter');
  await p2.keyboard.press('Enter');
  await expect(p2.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
  for (let i = 3; i <= ITEMS.length; i++) {
    await freshItem(p2);
    for (let k = 0; k < DIMS.length; k++) await p2.keyboard.press('3');
    await p2.keyboard.press('Enter');
    await expect(p2.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
  }
  await expect(p2.getByTestId('all-done')).toBeVisible();

  // The adjudicator: one item, one disputed dimension, the reviewers as Reviewer 1 / Reviewer 2.
  const adj = await at1440(browser, 'adj');
  await adj.page.goto(`/studies/${studyId}/adjudicate`);
  await expect(adj.page.getByTestId('adjudicate')).toBeVisible();
  await expect(adj.page.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '1');
  const row = adj.page.getByTestId('reviewers-actionability');
  await expect(row).toContainText('Reviewer 1');
  await expect(row).toContainText('Reviewer 2');
  await expect(row).toContainText('Yes');
  await expect(row).toContainText('No');
  await expect(adj.page.locator('ol > [data-testid^="dimension-"]')).toHaveCount(1);
  await expect(adj.page.getByTestId('agreed-dimensions')).toContainText('Settled by the reviewers (3)');
  await expect
    .poll(() => adj.page.getByTestId('rubric-dialogue').evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop))
    .toBeLessThanOrEqual(1);
  for (const id of ITEMS.map((i) => i.id)) await expect(adj.page.locator('body')).not.toContainText(id);
  // i shows the focused dimension's description and hides it again, as on the review screen
  const disputedRow = adj.page.getByTestId('dimension-actionability');
  await expect(disputedRow).toHaveAttribute('aria-current', 'true');
  const description = /would the student know what to do next/;
  await expect(disputedRow).not.toContainText(description);
  await adj.page.keyboard.press('i');
  await expect(disputedRow).toContainText(description);
  await adj.page.keyboard.press('i');
  await expect(disputedRow).not.toContainText(description);
  await adj.page.keyboard.press('3');
  await adj.page.keyboard.press('Enter');
  await expect(adj.page.getByTestId('adjudication-done')).toBeVisible();

  // The lead: items filtered to the adjudicated one, then the ground-truth CSV from the study page.
  const lead = await at1440(browser, 'lead');
  await lead.page.goto(`/studies/${studyId}/items?state=adjudicated`);
  await expect(lead.page.getByTestId('item-count')).toHaveText('1 item');
  await lead.page.getByTestId('rubric-item-list').getByRole('link').first().click();
  await expect(lead.page.getByTestId('item-dimension-actionability')).toContainText('adjudicated');
  await expect(lead.page.getByTestId('item-dimension-actionability')).toContainText('by adj');
  await lead.page.goto(`/studies/${studyId}`);
  await expect(lead.page.getByTestId('gt-complete')).toHaveText('6');
  const [download] = await Promise.all([
    lead.page.waitForEvent('download'),
    lead.page.getByRole('link', { name: 'Ground truth (CSV)' }).click(),
  ]);
  const lines = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
  expect(lines[0]).toEqual([
    'item',
    'group',
    'source',
    'dimension',
    'label',
    'lenient_label',
    'provenance',
    'reviewer1_label',
    'reviewer2_label',
    'adjudicator',
    'rationale',
  ]);
  const body = lines.slice(1);
  expect(body).toHaveLength(ITEMS.length * DIMS.length);
  const ruled = body.filter((r) => r[6] === 'adjudicated');
  expect(ruled).toHaveLength(1);
  expect(ruled[0].slice(3, 6)).toEqual(['actionability', 'Yes', 'Yes']);
  expect([ruled[0][7], ruled[0][8]].sort()).toEqual(['No', 'Yes']);
  expect(ruled[0][9]).toBe('adj');
  expect(body.filter((r) => r[6] === 'agreed')).toHaveLength(ITEMS.length * DIMS.length - 1);
  // The command line exports the same rows.
  const cli = concord(['export', 'ground-truth', '--study', String(studyId), '--format', 'jsonl'])
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as { item: string; dimension: string; label: string; lenient_label: string; provenance: string; reviewers: string[] },
    );
  expect(cli.map((r) => [r.item, r.dimension, r.label, r.provenance])).toEqual(body.map((r) => [r[0], r[3], r[4], r[6]]));
  expect(cli.find((r) => r.provenance === 'adjudicated')).toMatchObject({ dimension: 'actionability', label: 'Yes', lenient_label: 'Yes' });
  await Promise.all([one.context.close(), two.context.close(), adj.context.close(), lead.context.close()]);
});
