import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

// Distinctive strings that must never reach an annotator or an adjudicator.
const SECRET = /ZQXSRC|ZQXID|ZQXJUDGE/;
const ITEMS = 4;

function setUpStudy(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-blind-'));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `ZQXID-${i}`,
    problem: `What is ${i + 2} × 3?`,
    principles: ['Feedback'],
    history: [
      { role: 'tutor', text: 'What do you get?' },
      { role: 'student', text: `I think it is ${i + 5}.` },
    ],
    a: { source: 'ZQXSRC-alpha-model', text: `Let us check: ${i + 2} groups of 3.` },
    b: { source: 'ZQXSRC-beta-reference', text: 'Try adding 3 again and again.' },
  }));
  const judge = items.map((it) => ({ item: it.id, judge: 'ZQXJUDGE-run', labels: { overall: 'win' }, rationale: 'ZQXJUDGE says a' }));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  fs.writeFileSync(path.join(dir, 'judge.jsonl'), judge.map((x) => JSON.stringify(x)).join('\n'));
  const id = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Blinding check', '--criteria', 'none', '--json'])).id as number;
  concord(['import', 'items', '--study', String(id), path.join(dir, 'items.jsonl')]);
  concord(['import', 'judge', '--study', String(id), '--judge', 'ZQXJUDGE-run', path.join(dir, 'judge.jsonl')]);
  concord(['study', 'members', String(id), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(id)]);
  fs.rmSync(dir, { recursive: true, force: true });
  return id;
}

/** Records the body of every response the page receives: documents, JSON, server-action payloads, scripts. */
function recordResponses(page: Page) {
  const bodies: { url: string; body: string }[] = [];
  page.on('response', async (res) => {
    try {
      bodies.push({ url: res.url(), body: await res.text() });
    } catch {
      // redirects and aborted requests have no body
    }
  });
  return bodies;
}

test('nothing an annotator or adjudicator can reach names a source, a judge label or the other reviewer', async ({ browser }) => {
  const studyId = setUpStudy();
  const one = await asUser(browser, 'ann1');
  const two = await asUser(browser, 'ann2');
  const seenByOne = recordResponses(one.page);
  const seenByTwo = recordResponses(two.page);

  for (const [who, page, choice] of [
    ['ann1', one.page, '1'],
    ['ann2', two.page, '2'],
  ] as const) {
    await page.goto('/');
    await page.goto(`/studies/${studyId}/review`);
    const overall = page.getByTestId('criterion-overall');
    for (let i = 1; i <= ITEMS; i++) {
      // A fresh item is on screen: its overall row is there with nothing chosen yet.
      await expect(overall.getByRole('radio')).toHaveCount(3);
      await expect(overall.getByRole('radio', { checked: true })).toHaveCount(0);
      await page.keyboard.press(choice);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
    }
    // Undo brings the last item back with its choice; submit it again, and poke at routes they may not use.
    await page.keyboard.press('u');
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(ITEMS - 1));
    await expect(overall.getByRole('radio', { checked: true })).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('all-done')).toBeVisible();
    for (const url of [`/api/studies/${studyId}/adjudication`, `/api/studies/${studyId}/export?what=ground-truth&format=jsonl`, `/api/assignments/999999`]) {
      const res = await page.request.get(url);
      expect(res.status(), `${who} ${url}`).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toMatch(SECRET);
    }
  }

  const adj = await asUser(browser, 'adj');
  const seenByAdj = recordResponses(adj.page);
  await adj.page.goto(`/studies/${studyId}/adjudicate`);
  // ann1 always preferred a reply and ann2 always called a tie, so every item disagrees; the adjudicator sides with the tie.
  for (let i = 0; i < ITEMS; i++) {
    const current = adj.page.getByTestId('adjudicate');
    await expect(current).toBeVisible();
    const item = await current.getAttribute('data-item');
    await expect(adj.page.getByTestId('adjudicate-overall')).toContainText('Reviewer 2');
    await adj.page.keyboard.press('2');
    await adj.page.keyboard.press('Enter');
    if (i < ITEMS - 1) await expect(adj.page.getByTestId('adjudicate')).not.toHaveAttribute('data-item', item!);
  }
  await expect(adj.page.getByTestId('adjudication-done')).toBeVisible();

  const leaks = (bodies: { url: string; body: string }[], extra: RegExp) =>
    bodies.filter((b) => SECRET.test(b.body) || extra.test(b.body)).map((b) => b.url);
  expect(seenByOne.length).toBeGreaterThan(5);
  expect(leaks(seenByOne, /Annotator Two|"ann2"/)).toEqual([]);
  expect(leaks(seenByTwo, /Annotator One|"ann1"/)).toEqual([]);
  expect(leaks(seenByAdj, /Annotator One|Annotator Two|"ann1"|"ann2"/)).toEqual([]);
  await Promise.all([one.context.close(), two.context.close(), adj.context.close()]);
});
