import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { withReadonlyDb } from './support/server';
import { asUser, DEMO_PASSWORD } from './support/session';

// Issue 21, point 6b: Revise (history → Revise) withdraws nothing. The lead's counts and the payout stay while the
// reviewer revises; the screen says which submission is being revised and that it counts until the revision is
// submitted; leaving the revise unfinished, or keeping the submission, keeps the old one. The spec makes its own
// account and study.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'revise-keeps-2026';
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
let studyId = 0;

test.beforeAll(() => {
  concord(['user', 'add', 'rvk1', '--role', 'annotator', '--name', 'Reviser One'], PASSWORD);
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'flow_review', '--name', 'Revise keeps', '--pay-rate', '0.50', '--reviewers', '1', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), path.join(SEED, 'flows.jsonl')]);
  concord(['study', 'members', String(studyId), 'rvk1']);
  concord(['study', 'open', String(studyId)]);
});

function open(browser: Browser, username: string, password: string) {
  return asUser(browser, username, password, { viewport: { width: 1440, height: 900 } });
}

/** The lead's study page, read afresh: verified and discarded flows, and the reviewer's "done / assigned" and payout. */
async function leadSees(lead: Page) {
  await lead.goto(`/studies/${studyId}`);
  const row = lead.getByTestId('reviewer-table').getByRole('row', { name: /Reviser One/ });
  await expect(row).toBeVisible();
  const cells = await row.getByRole('cell').allTextContents();
  return {
    // The count itself, without the share after it.
    verified: await lead.getByTestId('count-verified').evaluate((el) => el.firstChild!.textContent),
    discarded: await lead.getByTestId('count-discarded').evaluate((el) => el.firstChild!.textContent),
    done: cells[1].trim(),
    payout: cells[4].trim(),
  };
}

/** The reviewer's assignment of a flow: its state and how many revisions it has. */
function stored(externalId: string) {
  return withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
    db
      .prepare(
        `SELECT a.state, (SELECT count(*) FROM annotations n WHERE n.assignment_id = a.id) AS revisions
           FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND i.external_id = ?`,
      )
      .get(studyId, externalId),
  );
}

/** The history lists flows by their place in the study: kmp-style-001 is item 1. */
const historyRow = (page: Page, externalId: string) =>
  page.getByTestId('history-row').filter({ has: page.getByRole('link', { name: `Item ${Number(externalId.slice(-3))}`, exact: true }) });

async function reviseFromHistory(page: Page, externalId: string) {
  await page.goto(`/studies/${studyId}/review/history`);
  await historyRow(page, externalId).getByRole('link').click();
  await expect(page.getByTestId('submission-view').getByTestId('item-label')).toHaveText(`Item ${externalId}`);
  await page.getByRole('button', { name: 'Revise' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/review$`));
}

test('revise keeps the submission counted until the revision is submitted, and says so on the screen', async ({ browser }) => {
  const { page, context } = await open(browser, 'rvk1', PASSWORD);
  const lead = await open(browser, 'lead', DEMO_PASSWORD);
  await page.goto(`/studies/${studyId}/review`);
  const flowId = page.getByTestId('flow-id');
  const progress = page.getByRole('progressbar');
  const banner = page.getByTestId('revising-banner');
  for (const id of ['kmp-style-001', 'kmp-style-002']) {
    await expect(flowId).toHaveText(id);
    await page.keyboard.press('v');
    await page.keyboard.press('Enter');
  }
  await expect(flowId).toHaveText('kmp-style-003');
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  const counted = { verified: '2', discarded: '0', done: '2 / 6', payout: expect.stringContaining('1.00') };
  expect(await leadSees(lead.page)).toEqual(counted);
  await expect(banner).toHaveCount(0);

  // Revise the first flow: the lead's numbers and the reviewer's progress stay; the banner says what is revised.
  await page.goto(`/studies/${studyId}/review/history`);
  const submittedAt = await historyRow(page, 'kmp-style-001').locator('time').getAttribute('datetime');
  await reviseFromHistory(page, 'kmp-style-001');
  await expect(flowId).toHaveText('kmp-style-001');
  expect(await leadSees(lead.page)).toEqual(counted);
  expect(stored('kmp-style-001')).toEqual({ state: 'submitted', revisions: 1 });
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  await expect(banner).toHaveText(/Revising your submission of \d{4}-\d\d-\d\d \d\d:\d\d UTC — it counts until you submit this revision\./);
  await expect(banner.locator('time')).toHaveAttribute('datetime', new Date(submittedAt!).toISOString());
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');

  // Left unfinished (away to the home page, then a reload of the review): still counted, still revising.
  await page.keyboard.press('d');
  await page.goto('/');
  expect(await leadSees(lead.page)).toEqual(counted);
  await page.goto(`/studies/${studyId}/review`);
  await page.reload();
  await expect(flowId).toHaveText('kmp-style-001');
  await expect(banner).toBeVisible();
  expect(await leadSees(lead.page)).toEqual(counted);

  // Submitted: the revision replaces the verify, counted once; the queue goes on where it was.
  await page.keyboard.press('d');
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(flowId).toHaveText('kmp-style-003');
  await expect(banner).toHaveCount(0);
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  expect(await leadSees(lead.page)).toEqual({ ...counted, verified: '1', discarded: '1' });
  expect(stored('kmp-style-001')).toEqual({ state: 'submitted', revisions: 2 });
  await lead.context.close();
  await context.close();
});

test('"Keep my submission" gives the revise up: the old submission stays, the queue goes on', async ({ browser }) => {
  const { page, context } = await open(browser, 'rvk1', PASSWORD);
  await reviseFromHistory(page, 'kmp-style-002');
  const flowId = page.getByTestId('flow-id');
  const banner = page.getByTestId('revising-banner');
  await expect(flowId).toHaveText('kmp-style-002');
  await page.keyboard.press('t');
  await banner.getByRole('button', { name: 'Keep my submission' }).click();
  await expect(banner).toHaveCount(0);
  await expect(flowId).toHaveText('kmp-style-003');
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
  expect(stored('kmp-style-002')).toEqual({ state: 'submitted', revisions: 1 });
  await page.goto(`/studies/${studyId}/review/history`);
  await expect(historyRow(page, 'kmp-style-002').locator('td').last()).toHaveText('1');
  await context.close();
});
