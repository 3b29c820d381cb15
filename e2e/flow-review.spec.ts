import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Request, type Route } from '@playwright/test';
import { concord } from './support/cli';
import { parseCsv } from '../test/csv';
import { withReadonlyDb } from './support/server';
import { asUser, DEMO_PASSWORD } from './support/session';

// The KMP-style flows in a study of this spec's own, reviewed in full by two reviewers of its own (so no other spec
// sees or changes what they submit): with two reviewers per flow, each gets the flows in file order.
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const [REVIEWER, OTHER] = ['fr-ann1', 'fr-ann2'];
let STUDY = 0;

// The lead's test reads what the reviewer's test submitted.
test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  for (const u of [REVIEWER, OTHER]) concord(['user', 'add', u, '--role', 'annotator'], DEMO_PASSWORD);
  STUDY = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Flow review e2e', '--reviewers', '2', '--json'])).id;
  concord(['import', 'items', '--study', String(STUDY), KMP]);
  concord(['study', 'members', String(STUDY), REVIEWER, OTHER]);
  concord(['study', 'open', String(STUDY)]);
});

test('a reviewer works through flows by keyboard, keeps a draft across a reload and undoes a submission', async ({ browser }) => {
  const { page, context } = await asUser(browser, REVIEWER);
  await page.goto(`/studies/${STUDY}/review`);
  const flowId = page.getByTestId('flow-id');
  const progress = page.getByRole('progressbar');

  await expect(flowId).toHaveText('kmp-style-001');
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  await page.keyboard.press('v');
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');

  // Flow 002 uses a material it does not provide: the screen says so.
  await expect(flowId).toHaveText('kmp-style-002');
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByText(/uses M5, which this flow does not provide/)).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('t');
  await expect(page.getByRole('button', { name: /Truncate after step 3/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Draft saved.')).toBeVisible();

  await page.reload();
  await expect(flowId).toHaveText('kmp-style-002');
  await expect(page.getByRole('button', { name: /Truncate after step 3/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('step-4')).toContainText('cut');
  await page.keyboard.press('Enter');

  await expect(flowId).toHaveText('kmp-style-003');
  await page.keyboard.press('d');
  await page.keyboard.press('2');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  await page.keyboard.press('Enter');

  await expect(flowId).toHaveText('kmp-style-004');
  await expect(progress).toHaveAttribute('aria-valuenow', '3');
  await page.keyboard.press('u');
  await expect(flowId).toHaveText('kmp-style-003');
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  await expect(page.getByRole('button', { name: /Discard/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(flowId).toHaveText('kmp-style-004');
  await expect(progress).toHaveAttribute('aria-valuenow', '3');
  await context.close();
});

test('the lead sees the decisions and downloads exports with the right content', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${STUDY}`);
  await expect(page.getByTestId('count-verified')).toContainText('1');
  await expect(page.getByTestId('count-truncated')).toContainText('1');
  await expect(page.getByTestId('count-discarded')).toContainText('1');
  await expect(page.getByTestId('reviewer-table')).toContainText('3 / 6');

  // Every flow of this study has two reviewers and only one has reviewed: no flow is verified yet. The verified
  // flows leave them out and say how many; the export with incomplete ones has them, marked as such.
  const [flows] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Verified flows (JSONL)' }).click()]);
  expect(fs.readFileSync((await flows.path())!, 'utf8')).toBe('');
  const direct = await page.request.get(`/api/studies/${STUDY}/export?what=flows&format=jsonl`);
  expect(direct.headers()['x-concord-incomplete-items']).toBe('6');
  const [partial] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Verified flows with incomplete ones (JSONL)' }).click(),
  ]);
  const lines = fs
    .readFileSync((await partial.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((f) => f.id)).toEqual(['kmp-style-001', 'kmp-style-002']);
  expect(lines[1].steps).toHaveLength(3);
  expect(lines[1].review).toMatchObject({ decision: 'truncate', afterStep: 3, reviewers: [REVIEWER], complete: false });
  expect((await page.request.get(`/api/studies/${STUDY}/export?what=flows&include-incomplete=maybe`)).status()).toBe(400);

  const [decisions] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Decisions (CSV)' }).click()]);
  const rows = parseCsv(fs.readFileSync((await decisions.path())!, 'utf8'));
  expect(rows).toHaveLength(4);
  expect(rows[3].slice(0, 5)).toEqual(['kmp-style-003', REVIEWER, 'discard', '', 'illogical_sequence']);
  await context.close();
});

/** A submit is the server action whose arguments carry a request id (draft saves and undo carry none). */
const submitOf = (req: Request) => {
  if (req.method() !== 'POST' || !req.headers()['next-action']) return null;
  const body = req.postData() ?? '';
  const m = /"requestId":"([0-9a-f]+)"/.exec(body);
  return m ? { requestId: m[1], body } : null;
};

test('the next flow shows while a submit is on its way; a lost answer brings the flow back and the retry is stored once', async ({
  browser,
}) => {
  const kmp = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
  const total = fs.readFileSync(kmp, 'utf8').trim().split('\n').length;
  concord(['user', 'add', 'swift', '--role', 'annotator', '--name', 'Swift Reviewer'], 'swift-password-1');
  const studyId = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Fast submits', '--json'])).id as number;
  concord(['import', 'items', '--study', String(studyId), kmp]);
  concord(['study', 'members', String(studyId), 'swift']);
  concord(['study', 'open', String(studyId)]);

  const { context, page } = await asUser(browser, 'swift', 'swift-password-1');

  // Every submit passes through here; `hold` decides what happens to it.
  const sent: { requestId: string; body: string }[] = [];
  let hold: (route: Route) => Promise<void> = (route) => route.continue();
  await page.route(`**/studies/${studyId}/review`, async (route) => {
    const submit = submitOf(route.request());
    if (!submit) return route.continue();
    sent.push(submit);
    await hold(route);
  });

  await page.goto(`/studies/${studyId}/review`);
  const flowId = page.getByTestId('flow-id');
  const progress = page.getByRole('progressbar');
  await expect(flowId).toBeVisible();
  await page.waitForLoadState('networkidle'); // the next flow is fetched ahead
  const first = (await flowId.textContent())!.trim();

  // 1. The server is slow to answer: the next flow is on screen while the submit is still waiting.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  hold = async (route) => {
    await released;
    await route.continue();
  };
  await page.keyboard.press('v');
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // a double Enter: the second lands on the next flow, which has no decision yet
  await expect(flowId).not.toHaveText(first);
  const second = (await flowId.textContent())!.trim();
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  expect(sent).toHaveLength(1);
  expect(sent[0].body).toContain('"verify"');

  // `u` while that submit is still waiting takes back the flow just submitted, once the submit has landed.
  await page.keyboard.press('u');
  // The key has been handled and the screen drawn again (two frames) before it is checked unchanged.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await expect(flowId).toHaveText(second);
  release();
  await expect(flowId).toHaveText(first);
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
  hold = (route) => route.continue();
  // The screen moves on before the submission is sent (it waits behind the undo): wait for its answer, or the hold
  // set below would catch it instead of the next one.
  const resubmitted = page.waitForResponse((r) => submitOf(r.request()) !== null);
  await page.keyboard.press('Enter');
  await expect(flowId).toHaveText(second);
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  await resubmitted;
  await page.waitForLoadState('networkidle');

  // 2. The server stores a submit but its answer is lost: the reviewer is brought back to the flow with the
  // error and their decision; Enter sends it again with the same request id, and it is stored once.
  let answerLost!: () => void;
  const lost = new Promise<void>((r) => (answerLost = r));
  hold = async (route) => {
    await route.fetch();
    await route.abort('failed');
    answerLost();
  };
  await page.keyboard.press('d');
  await page.keyboard.press('2');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  const beforeFailure = sent.length;
  await page.keyboard.press('Enter');
  await lost;
  const unreachable = page.getByRole('alert').filter({ hasText: 'could not be reached' });
  await expect(unreachable).toBeVisible();
  await expect(flowId).toHaveText(second);
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByRole('button', { name: /Discard/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel(/Illogical sequence/)).toBeChecked();
  hold = (route) => route.continue();
  await page.keyboard.press('Enter');
  await expect(flowId).not.toHaveText(second);
  await expect(unreachable).toHaveCount(0);
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  expect(sent.slice(beforeFailure)).toHaveLength(2);
  expect(sent[beforeFailure + 1].requestId).toBe(sent[beforeFailure].requestId);

  // 3. The rest of the queue as fast as the keyboard allows; the progress ends exact.
  for (let k = 2; k < total; k++) {
    const shown = (await flowId.textContent())!.trim();
    await page.keyboard.press('v');
    await expect(page.getByRole('button', { name: /Verify/ })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Enter');
    if (k < total - 1) await expect(flowId).not.toHaveText(shown);
  }
  await expect(page.getByTestId('all-done')).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', String(total));

  const stored = withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) => ({
    perFlow: db
      .prepare(
        `SELECT i.external_id AS flow, count(an.id) AS n, max(an.decision) AS lastDecision FROM assignments a
           JOIN items i ON i.id = a.item_id LEFT JOIN annotations an ON an.assignment_id = a.id
          WHERE a.study_id = ? GROUP BY a.id ORDER BY a.queue_position`,
      )
      .all(studyId) as { flow: string; n: number }[],
    submitted: db.prepare(`SELECT count(*) FROM assignments WHERE study_id = ? AND state = 'submitted'`).pluck().get(studyId),
    requestIds: db
      .prepare('SELECT count(DISTINCT request_id) FROM annotations an JOIN assignments a ON a.id = an.assignment_id WHERE a.study_id = ?')
      .pluck()
      .get(studyId),
  }));
  // The first flow twice (submitted, undone, submitted again), every other flow once, the lost-answer one included.
  expect(stored.perFlow.map((r) => [r.flow, r.n])).toEqual(stored.perFlow.map((r) => [r.flow, r.flow === first ? 2 : 1]));
  expect(stored.perFlow.find((r) => r.flow === second)).toMatchObject({ n: 1, lastDecision: 'discard' });
  expect(stored.submitted).toBe(total);
  expect(stored.requestIds).toBe(total + 1);
  await context.close();
});
