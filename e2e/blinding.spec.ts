import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PAIRWISE_CRITERION_TEMPLATE } from '../lib/validation/judge-templates';
import { LAYOUT_PAYLOADS } from '../test/hostile-corpus-layout';
import { concord } from './support/cli';
import { addJudgeRun, createRubricStudy, mrbenchSlice } from './support/rubric-study';
import { asUser, DEMO_PASSWORD } from './support/session';

// Distinctive strings that must never reach an annotator or an adjudicator.
const SECRET = /ZQXSRC|ZQXID|ZQXJUDGE/;
const ITEMS = 4;

/** A stand-in judge endpoint in a process of its own (the CLI below blocks this one); answers carry `says`. */
async function startStandInProcess(port: number, says: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/judge-standin.ts', String(port), '0', says], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the stand-in judge exited (${code})`)));
  });
  return { url, stop: () => child.kill() };
}

async function setUpStudy(): Promise<number> {
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
  const id = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Blinding check', '--criteria', 'none', '--json']))
    .id as number;
  concord(['import', 'items', '--study', String(id), path.join(dir, 'items.jsonl')]);
  concord(['import', 'judge', '--study', String(id), '--judge', 'ZQXJUDGE-run', path.join(dir, 'judge.jsonl')]);
  concord(['study', 'members', String(id), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(id)]);
  // A judge run launched from Concord: its raw answers, name and model are the lead's alone.
  const standIn = await startStandInProcess(3502, 'ZQXJUDGE raw answer');
  try {
    fs.writeFileSync(path.join(dir, 'prompt.json'), JSON.stringify(PAIRWISE_CRITERION_TEMPLATE));
    concord([
      'judge',
      'run',
      '--study',
      String(id),
      '--name',
      'ZQXJUDGE-launched',
      '--endpoint',
      standIn.url,
      '--model',
      'ZQXJUDGE-model',
      '--prompt',
      path.join(dir, 'prompt.json'),
    ]);
  } finally {
    standIn.stop();
  }
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
  // The set-up runs a judge through the CLI too, which takes some seconds on a busy machine.
  test.setTimeout(120_000);
  const studyId = await setUpStudy();
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
    for (const url of [
      `/api/studies/${studyId}/adjudication`,
      `/api/studies/${studyId}/export?what=ground-truth&format=jsonl`,
      `/api/assignments/999999`,
    ]) {
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

test('over the HTTP API an annotator gets exactly what the review screen gets for the next item, and nothing secret', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-blind-api-'));
  const items = Array.from({ length: 2 }, (_, i) => ({
    id: `ZQXID-api-${i}`,
    problem: `What is ${i + 2} × 4?`,
    principles: ['Feedback'],
    history: [{ role: 'tutor', text: 'What do you get?' }],
    a: { source: 'ZQXSRC-alpha-model', text: `Count ${i + 2} groups of 4.` },
    b: { source: 'ZQXSRC-beta-reference', text: 'Add 4 again and again.' },
  }));
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  fs.writeFileSync(
    path.join(dir, 'judge.jsonl'),
    items
      .map((it) => JSON.stringify({ item: it.id, judge: 'ZQXJUDGE-api', labels: { overall: 'win' }, rationale: 'ZQXJUDGE says a' }))
      .join('\n'),
  );
  const studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'API blinding check', '--criteria', 'none', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(studyId), path.join(dir, 'items.jsonl')]);
  concord(['import', 'judge', '--study', String(studyId), '--judge', 'ZQXJUDGE-api', path.join(dir, 'judge.jsonl')]);
  concord(['study', 'members', String(studyId), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(studyId)]);
  fs.rmSync(dir, { recursive: true, force: true });

  const { token } = JSON.parse(concord(['token', 'create', '--user', 'ann1', '--name', `blinding ${studyId}`, '--json'])) as {
    token: string;
  };
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const screen = await asUser(browser, 'ann1');
  for (let i = 0; i < items.length; i++) {
    const res = await api.get(`/api/v1/studies/${studyId}/next`);
    expect(res.status()).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(SECRET);
    expect(text).not.toMatch(/Annotator Two|"ann2"/);
    const next = JSON.parse(text) as { queue: { currentId: number }; assignment: { assignmentId: number; criteria: { id: string }[] } };
    // What the review screen loads: its queue and the current assignment, through the browser's routes.
    const queue = await (await screen.page.request.get(`/api/studies/${studyId}/queue`)).json();
    const shown = await (await screen.page.request.get(`/api/assignments/${next.queue.currentId}`)).json();
    expect(next.queue).toEqual(queue);
    expect(next.assignment).toEqual(shown);
    const submitted = await api.post(`/api/v1/assignments/${next.assignment.assignmentId}/submission`, {
      data: {
        requestId: `blind-api-${studyId}-${i}`,
        activeMs: 100,
        choices: Object.fromEntries(next.assignment.criteria.map((c) => [c.id, 'r1'])),
      },
    });
    expect(submitted.status()).toBe(200);
    expect(await submitted.text()).not.toMatch(SECRET);
  }
  await Promise.all([api.dispose(), screen.context.close()]);
});

test('rubric screens: nothing a reviewer or adjudicator can reach names a reply’s source, an item, a judge verdict or the other reviewer', async ({
  browser,
}) => {
  const items = mrbenchSlice(2, ['Sonnet', 'Expert']).map((it, i) => ({
    ...it,
    id: `ZQXID-r${i}`,
    group: `ZQXID-g-${it.group}`,
    reply: { source: `ZQXSRC-${it.reply!.source}`, text: it.reply!.text },
  }));
  const studyId = createRubricStudy('Rubric blinding check', items);
  addJudgeRun(studyId, items, 'ZQXJUDGE-rubric', 'ZQXJUDGE says no');
  const one = await asUser(browser, 'ann1');
  const two = await asUser(browser, 'ann2');
  const seenByOne = recordResponses(one.page);
  const seenByTwo = recordResponses(two.page);
  // ann1 says Yes everywhere, ann2 No: every dimension of every item goes to the adjudicator.
  for (const [who, page, key] of [
    ['ann1', one.page, '3'],
    ['ann2', two.page, '1'],
  ] as const) {
    await page.goto(`/studies/${studyId}/review`);
    for (let i = 1; i <= items.length; i++) {
      await expect(page.getByTestId('rubric-reply')).toBeVisible();
      await expect(page.getByTestId('dimensions').getByRole('radio')).toHaveCount(12);
      await expect(page.getByTestId('dimensions').getByRole('radio', { checked: true })).toHaveCount(0);
      for (let k = 0; k < 4; k++) await page.keyboard.press(key);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i));
    }
    await expect(page.getByTestId('all-done')).toBeVisible();
    for (const url of [
      `/api/studies/${studyId}/adjudication`,
      `/api/studies/${studyId}/export?what=ground-truth&format=jsonl`,
      `/studies/${studyId}/items`,
    ]) {
      const res = await page.request.get(url);
      expect(res.status(), `${who} ${url}`).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toMatch(SECRET);
    }
  }
  const adj = await asUser(browser, 'adj');
  const seenByAdj = recordResponses(adj.page);
  await adj.page.goto(`/studies/${studyId}/adjudicate`);
  for (let i = 0; i < items.length; i++) {
    const current = adj.page.getByTestId('adjudicate');
    await expect(adj.page.getByTestId('reviewers-actionability')).toContainText('Reviewer 2');
    const item = await current.getAttribute('data-item');
    for (let k = 0; k < 4; k++) await adj.page.keyboard.press('3');
    await adj.page.keyboard.press('Enter');
    if (i < items.length - 1) await expect(adj.page.getByTestId('adjudicate')).not.toHaveAttribute('data-item', item!);
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

/*
 * Blinding by layout: imported TeX and Markdown must stay inside their own box (CONVENTIONS "Anti-patterns" 7).
 * Each payload of the layout corpus is reply b of an item (and a flow step); on screen, everything painted inside a
 * card must lie inside that card, and the text of every other card must not be covered by it.
 */

/** Run in the page: for every block matching `selector`, what it paints outside its own box, and where it covers another. */
function layoutProblems(selector: string): string[] {
  const blocks = [...document.querySelectorAll<HTMLElement>(selector)];
  const problems: string[] = [];
  type Box = { left: number; top: number; right: number; bottom: number };
  const empty = (b: Box) => b.right - b.left < 0.5 || b.bottom - b.top < 0.5;
  /** The part of `rect` left after every ancestor of `from` that clips its descendants (overflow, paint containment, clip). */
  const clipped = (rect: Box, from: Element | null): Box => {
    const out = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    for (let a = from; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.display === 'inline' || cs.display === 'contents') continue;
      const paint = /paint|strict|content/.test(cs.contain) || (cs.clip !== 'auto' && cs.position === 'absolute');
      const clipX = paint || cs.overflowX !== 'visible';
      const clipY = paint || cs.overflowY !== 'visible';
      if (!clipX && !clipY) continue;
      const r = a.getBoundingClientRect();
      const left = r.left + a.clientLeft;
      const top = r.top + a.clientTop;
      if (clipX) {
        out.left = Math.max(out.left, left);
        out.right = Math.min(out.right, left + (a.clientWidth || r.width));
      }
      if (clipY) {
        out.top = Math.max(out.top, top);
        out.bottom = Math.min(out.bottom, top + (a.clientHeight || r.height));
      }
    }
    return out;
  };
  const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')}`;
  const textRects = (root: Element) => {
    const rects: { box: Box; node: Text }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      if (!n.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) rects.push({ box: clipped(r, n.parentElement), node: n });
    }
    return rects;
  };

  for (const block of blocks) {
    block.scrollIntoView({ block: 'center' });
    const own = block.getBoundingClientRect();
    const id = block.dataset.testid ?? name(block);
    const outside = (b: Box) => b.left < own.left - 1 || b.right > own.right + 1 || b.top < own.top - 1 || b.bottom > own.bottom + 1;
    // Painted boxes: every element and every run of text, after clipping.
    for (const el of block.querySelectorAll('*')) {
      const box = clipped(el.getBoundingClientRect(), el.parentElement);
      if (empty(box) || !outside(box)) continue;
      problems.push(
        `${id}: ${name(el)} painted at ${Math.round(box.left)},${Math.round(box.top)}–${Math.round(box.right)},${Math.round(box.bottom)} outside ${Math.round(own.left)},${Math.round(own.top)}–${Math.round(own.right)},${Math.round(own.bottom)}`,
      );
      if (problems.length > 40) return problems;
    }
    for (const { box, node } of textRects(block)) {
      if (!empty(box) && outside(box)) problems.push(`${id}: text "${node.data.slice(0, 30)}" painted outside its block`);
    }
    // Nothing of another block covers this block's text (the fixed action bar may: it is not a block).
    const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
    let sampled = 0;
    for (const { box } of textRects(block)) {
      if (empty(box)) continue;
      const x = (Math.max(box.left, viewport.left) + Math.min(box.right, viewport.right)) / 2;
      const y = (Math.max(box.top, viewport.top) + Math.min(box.bottom, viewport.bottom)) / 2;
      if (x <= viewport.left || x >= viewport.right || y <= viewport.top || y >= viewport.bottom) continue;
      if (sampled++ > 300) break;
      const hit = document.elementFromPoint(x, y);
      const cover = hit && blocks.find((other) => other !== block && other.contains(hit));
      if (cover)
        problems.push(
          `${id}: text at ${Math.round(x)},${Math.round(y)} is covered by ${cover.dataset.testid ?? name(cover)} (${name(hit!)})`,
        );
    }
  }
  return problems;
}

test('imported TeX and Markdown never paint outside their card or over the other reply', async ({ browser }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-layout-'));
  const replyA =
    'Reply A: let us count the groups of three together. How many groups do you see in the picture, and how many are in each group? ' +
    'Write the number sentence $4 \\times 3 = 12$ and check it by adding $3 + 3 + 3 + 3$.';
  const items = LAYOUT_PAYLOADS.map((p, i) => ({
    id: `layout-${String(i + 1).padStart(2, '0')}`,
    problem: 'What is 4 × 3?',
    history: [{ role: 'student', text: 'Is it 7?' }],
    a: { source: 'model-a', text: replyA },
    b: { source: 'reference', text: p },
  }));
  const flow = {
    id: 'layout-flow',
    problem: { text: 'What is 4 × 3?' },
    steps: LAYOUT_PAYLOADS.flatMap((p, i) => [
      { speaker: 'tutor', text: `Plain step ${i + 1}: how many groups of three do you see, and how many are in each group?` },
      { speaker: 'student', text: p },
    ]),
  };
  fs.writeFileSync(path.join(dir, 'items.jsonl'), items.map((x) => JSON.stringify(x)).join('\n'));
  fs.writeFileSync(path.join(dir, 'flows.jsonl'), JSON.stringify(flow));
  // A reviewer of its own: other specs disable or reassign the demo annotators.
  concord(['user', 'add', 'layout-reader', '--role', 'annotator', '--name', 'Layout reader'], DEMO_PASSWORD);
  const pair = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Layout check', '--criteria', 'none', '--reviewers', '1', '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(pair), path.join(dir, 'items.jsonl')]);
  concord(['study', 'members', String(pair), 'layout-reader']);
  concord(['study', 'open', String(pair)]);
  const flows = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Layout flows', '--json'])).id as number;
  concord(['import', 'items', '--study', String(flows), path.join(dir, 'flows.jsonl')]);
  concord(['study', 'members', String(flows), 'layout-reader']);
  concord(['study', 'open', String(flows)]);
  fs.rmSync(dir, { recursive: true, force: true });

  const { context, page } = await asUser(browser, 'layout-reader');
  const problems: string[] = [];
  const checkAt = async (label: string, selector: string) => {
    // Side by side (wide) and stacked (narrow: the second card sits below the first).
    for (const size of [
      { width: 1280, height: 800 },
      { width: 640, height: 900 },
    ]) {
      await page.setViewportSize(size);
      // Measured once the page has laid itself out at the new size.
      await page.waitForFunction((w) => window.innerWidth === w, size.width);
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
      const found = await page.evaluate(layoutProblems, selector);
      problems.push(...found.slice(0, 5).map((p) => `${label} at ${size.width}px: ${p}`));
    }
  };

  await page.goto(`/studies/${pair}/review`);
  for (let i = 1; i <= items.length; i++) {
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(i - 1));
    await expect(page.getByTestId('response-2')).toBeVisible();
    const shown = await page.locator('[data-testid^="response-"]').allInnerTexts();
    const payload = shown.join(' ').match(/LAY\d\d/)?.[0] ?? '?';
    await checkAt(payload, '[data-testid^="response-"]');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
  }
  await expect(page.getByTestId('all-done')).toBeVisible();

  await page.goto(`/studies/${flows}/review`);
  await expect(page.getByTestId(`step-${flow.steps.length}`)).toBeAttached();
  await checkAt('flow steps', '[data-testid^="step-"]');
  await context.close();
  expect(problems, problems.join('\n')).toEqual([]);
});
