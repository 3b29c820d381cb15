import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { mrbenchSlice } from './support/rubric-study';
import { withReadonlyDb } from './support/server';
import { asUser } from './support/session';
import { tempDir } from '../test/temp-dir';

// Issue 21, point 6a: what a reviewer types into a dialog or a text field stays there. The Flag and Comment dialogs
// open with the focus in their text box, and while any dialog or text field is open no review shortcut fires: on
// the three review screens (flow, pairwise, rubric) and the two adjudication screens. The sentence holds every
// shortcut letter and digit those screens use (j k v t d u s f c g i r n 1–5 ?) and spaces, which used to press
// the dialog's close button. The spec makes its own accounts and studies.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'typing-in-dialogs-2026';
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const SENTENCE = 'step 3 is wrong: undo it, verify 1, 2, 4 and 5? check the draft, skip nothing, just keep going.';
// For a dialog with no text field (the shortcut list): ? is the key that closes that one.
const NO_QUESTION = SENTENCE.replace('?', '');
const studies = { flow: 0, pair: 0, rubric: 0, pairAdj: 0, rubricAdj: 0 };

function tmpFile(name: string, text: string) {
  const file = path.join(tempDir('concord-typing-'), name);
  fs.writeFileSync(file, text);
  return file;
}

/** A study made with the CLI as a lead would: create, import the items, choose the people, open. */
function study(args: string[], items: string, members: string[]) {
  const id = JSON.parse(concord(['study', 'create', ...args, '--json'])).id as number;
  concord(['import', 'items', '--study', String(id), items]);
  concord(['study', 'members', String(id), ...members]);
  concord(['study', 'open', String(id)]);
  return id;
}

test.beforeAll(() => {
  for (const [username, name] of [
    ['tid1', 'Typing One'],
    ['tid2', 'Typing Two'],
    ['tid3', 'Typing Three'],
    ['tidadj', 'Typing Adjudicator'],
  ])
    concord(['user', 'add', username, '--role', 'annotator', '--name', name], PASSWORD);

  // tid1 reviews alone on the three review screens; tid2 and tid3 disagree on a pair and a rubric reply of their own
  // (in the adjudication tests), so the adjudicator has an item of each kind. Each test stands on its own data.
  const pair = tmpFile('pair.jsonl', `${fs.readFileSync(path.join(SEED, 'pairwise.jsonl'), 'utf8').trim().split('\n')[0]}\n`);
  const reply = tmpFile(
    'rubric.jsonl',
    `${mrbenchSlice(1, ['Sonnet'])
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  );
  const rubric = ['--kind', 'rubric', '--dimensions', 'mrbench-v3'];
  studies.flow = study(['--kind', 'flow_review', '--name', 'Typing flows', '--reviewers', '1'], path.join(SEED, 'flows.jsonl'), ['tid1']);
  studies.pair = study(['--kind', 'pairwise', '--name', 'Typing pairs', '--reviewers', '1'], pair, ['tid1']);
  studies.rubric = study([...rubric, '--name', 'Typing rubric', '--reviewers', '1'], reply, ['tid1']);
  const adjudicated = ['tid2', 'tid3', '--adjudicator', 'tidadj'];
  studies.pairAdj = study(['--kind', 'pairwise', '--name', 'Typing pairs to settle', '--reviewers', '2'], pair, adjudicated);
  studies.rubricAdj = study([...rubric, '--name', 'Typing rubric to settle', '--reviewers', '2'], reply, adjudicated);
});

function open(browser: Browser, username: string) {
  return asUser(browser, username, PASSWORD, { viewport: { width: 1440, height: 900 } });
}

/** What the reviewer has written in a study: annotations (every revision), and the flag, comment and draft of one assignment. */
function stored(studyId: number, username: string, assignmentId: number) {
  return withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) => ({
    annotations: db
      .prepare(
        `SELECT count(*) FROM annotations n JOIN assignments a ON a.id = n.assignment_id JOIN users u ON u.id = a.user_id
          WHERE a.study_id = ? AND u.username = ?`,
      )
      .pluck()
      .get(studyId, username) as number,
    submitted: db
      .prepare(
        `SELECT count(*) FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.study_id = ? AND u.username = ? AND a.state = 'submitted'`,
      )
      .pluck()
      .get(studyId, username) as number,
    remarks: db.prepare('SELECT flag_reason AS flag, comment FROM assignment_remarks WHERE assignment_id = ?').get(assignmentId) as
      { flag: string | null; comment: string | null } | undefined,
    draft: db.prepare('SELECT count(*) FROM drafts WHERE assignment_id = ?').pluck().get(assignmentId) as number,
  }));
}

/** Types the sentence into a dialog that must have opened with the focus in its text box, and saves it with Ctrl+Enter. */
async function typeIntoDialog(page: Page, dialog: Locator) {
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole('textbox');
  await expect(box).toBeFocused();
  await page.keyboard.type(SENTENCE);
  await expect(dialog).toBeVisible();
  await expect(box).toHaveValue(SENTENCE);
  await page.keyboard.press('Control+Enter');
  await expect(dialog).toBeHidden();
}

/**
 * Flag by its key (f), comment by its button, each with the sentence typed at once; then the screen must show the
 * same item, unchanged, and the server must hold the flag and comment with the full text and nothing else new.
 */
async function flagAndCommentByTyping(page: Page, studyId: number, assignmentId: number, unchanged: () => Promise<void>) {
  const progress = page.getByRole('progressbar');
  const done = await progress.getAttribute('aria-valuenow');
  const before = stored(studyId, 'tid1', assignmentId);

  await page.keyboard.press('f');
  await typeIntoDialog(page, page.getByRole('dialog', { name: 'Flag this item' }));
  await expect(page.getByTestId('flag-reason')).toHaveText(`Flagged: ${SENTENCE}`);
  await page
    .getByTestId('item-tools')
    .getByRole('button', { name: /Comment/ })
    .click();
  await typeIntoDialog(page, page.getByRole('dialog', { name: 'Comment on this item' }));
  await expect(page.getByTestId('item-comment')).toHaveText(`Your comment: ${SENTENCE}`);

  await expect(progress).toHaveAttribute('aria-valuenow', done!);
  await unchanged();
  const after = stored(studyId, 'tid1', assignmentId);
  expect(after).toEqual({ ...before, remarks: { flag: SENTENCE, comment: SENTENCE } });
}

test('flow review: typing a reason into Flag and Comment stays in the dialog; nothing is undone, decided or skipped', async ({
  browser,
}) => {
  const { page, context } = await open(browser, 'tid1');
  await page.goto(`/studies/${studies.flow}/review`);
  const flowId = page.getByTestId('flow-id');
  await expect(flowId).toHaveText('kmp-style-001');
  // One flow submitted first, so that u would have something to take back.
  await page.keyboard.press('v');
  await page.keyboard.press('Enter');
  await expect(flowId).toHaveText('kmp-style-002');
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  const assignmentId = withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
    db
      .prepare(`SELECT a.id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND i.external_id = 'kmp-style-002'`)
      .pluck()
      .get(studies.flow),
  ) as number;
  expect(stored(studies.flow, 'tid1', assignmentId)).toMatchObject({ annotations: 1, submitted: 1, draft: 0 });

  await flagAndCommentByTyping(page, studies.flow, assignmentId, async () => {
    await expect(flowId).toHaveText('kmp-style-002');
    for (const name of [/Verify/, /Truncate/, /Discard/])
      await expect(page.getByRole('button', { name }).first()).toHaveAttribute('aria-pressed', 'false');
  });
  await context.close();
});

test('pairwise: typing into Flag and Comment chooses nothing and submits nothing', async ({ browser }) => {
  const { page, context } = await open(browser, 'tid1');
  await page.goto(`/studies/${studies.pair}/review`);
  const judge = page.getByTestId('judge');
  await expect(page.getByTestId('criterion-overall').getByRole('radio')).toHaveCount(3);
  const assignmentId = Number(await judge.getAttribute('data-assignment'));

  await flagAndCommentByTyping(page, studies.pair, assignmentId, async () => {
    await expect(judge).toHaveAttribute('data-assignment', String(assignmentId));
    await expect(judge.getByRole('radio', { checked: true })).toHaveCount(0);
  });
  expect(stored(studies.pair, 'tid1', assignmentId)).toMatchObject({ annotations: 0, submitted: 0, draft: 0 });
  await context.close();
});

async function judgeAll(page: Page, key: string) {
  const rows = page.locator('[data-testid^="criterion-"]');
  await expect(page.getByTestId('criterion-overall').getByRole('radio')).toHaveCount(3);
  const n = await rows.count();
  for (let i = 0; i < n; i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();
}

test('rubric: typing into Flag and Comment labels nothing and submits nothing', async ({ browser }) => {
  const { page, context } = await open(browser, 'tid1');
  await page.goto(`/studies/${studies.rubric}/review`);
  const screen = page.getByTestId('rubric');
  const dimensions = page.getByTestId('dimensions');
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  const assignmentId = Number(await screen.getAttribute('data-assignment'));

  await flagAndCommentByTyping(page, studies.rubric, assignmentId, async () => {
    await expect(screen).toHaveAttribute('data-assignment', String(assignmentId));
    await expect(dimensions.getByRole('radio', { checked: true })).toHaveCount(0);
  });
  expect(stored(studies.rubric, 'tid1', assignmentId)).toMatchObject({ annotations: 0, submitted: 0, draft: 0 });
  await context.close();
});

async function labelAll(page: Page, key: string) {
  await expect(page.getByTestId('rubric-reply')).toBeVisible();
  // The four MRBench V3 dimensions.
  for (let i = 0; i < 4; i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('all-done')).toBeVisible();
}

function adjudications(studyId: number, table: 'adjudications' | 'rubric_adjudications') {
  return withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
    db.prepare(`SELECT count(*) FROM ${table} r JOIN items i ON i.id = r.item_id WHERE i.study_id = ?`).pluck().get(studyId),
  );
}

/**
 * On an adjudication screen: the shortcut list (?) takes the keyboard while it is open, a space does not close it and
 * no letter acts behind it; the rationale field (r) takes the whole sentence. No final label is chosen, nothing settled.
 */
async function typeOnAdjudication(page: Page, rows: Locator, rationale: () => Locator) {
  const screen = page.getByTestId('adjudicate');
  await expect(screen).toBeVisible();
  await expect(rows.first()).toBeVisible();
  await expect(rows.getByRole('radio', { checked: true })).toHaveCount(0);

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await page.keyboard.type(NO_QUESTION);
  await expect(help).toBeVisible();
  await expect(rows.getByRole('radio', { checked: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  await page.keyboard.press('r');
  await expect(rationale()).toBeFocused();
  await page.keyboard.type(SENTENCE);
  await expect(rationale()).toHaveValue(SENTENCE);
  await expect(rows.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/**
 * tid2 and tid3 submit the study's one item by keyboard, every row with their own key (`label` sets every row to
 * one key). Each reviewer sees a pair's replies in an order of their own, so opposite keys may well agree: a
 * preference against a tie never does.
 */
async function disagree(browser: Browser, studyId: number, label: (page: Page, key: string) => Promise<void>, keys: [string, string]) {
  for (const [username, key] of [
    ['tid2', keys[0]],
    ['tid3', keys[1]],
  ]) {
    const { page, context } = await open(browser, username);
    await page.goto(`/studies/${studyId}/review`);
    await label(page, key);
    await context.close();
  }
}

test('pairwise adjudication: the shortcut list and a rationale take what is typed; no label is chosen', async ({ browser }) => {
  await disagree(browser, studies.pairAdj, judgeAll, ['1', '2']);
  const { page, context } = await open(browser, 'tidadj');
  await page.goto(`/studies/${studies.pairAdj}/adjudicate`);
  await typeOnAdjudication(page, page.locator('[data-testid^="adjudicate-"]'), () => page.locator('textarea[data-rationale]:focus'));
  expect(adjudications(studies.pairAdj, 'adjudications')).toBe(0);
  await context.close();
});

test('rubric adjudication: the shortcut list and a rationale take what is typed; no label is chosen', async ({ browser }) => {
  await disagree(browser, studies.rubricAdj, labelAll, ['1', '3']);
  const { page, context } = await open(browser, 'tidadj');
  await page.goto(`/studies/${studies.rubricAdj}/adjudicate`);
  await typeOnAdjudication(page, page.locator('ol > [data-testid^="dimension-"]'), () => page.locator('textarea[data-rationale]').first());
  expect(adjudications(studies.rubricAdj, 'rubric_adjudications')).toBe(0);
  await context.close();
});
