import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startStandIn } from '../test/judge-standin';
import { concord } from './support/cli';
import { signInContext } from './support/session';

// Prompts from disagreements (issue 28, point 4) in the browser: a lead runs a judge, makes a new template version
// from the items it got wrong ("New version from disagreements": k drawn with a seed, or ticked), runs that version,
// and compares the two runs — the comparison says which items were left out and why. The same version is then made
// over the HTTP API with a token.
const ITEMS = 10;
const LABELS = ['win', 'lose', 'tie'];

test('a lead makes a new template version from a run’s disagreements, runs it and compares the runs without the examples', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const standIn = await startStandIn();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-examples-'));
  try {
    const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    fs.writeFileSync(
      path.join(dir, 'items.jsonl'),
      jsonl(
        Array.from({ length: ITEMS }, (_, i) => ({
          id: `ex-${i}`,
          problem: `What is ${i} times 3?`,
          a: { source: 'm1', text: `Add ${i} three times.` },
          b: { source: 'm2', text: `It is ${3 * i}.` },
        })),
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'annotations.jsonl'),
      jsonl(
        Array.from({ length: ITEMS }, (_, i) =>
          ['ex-ann1', 'ex-ann2'].map((annotator) => ({ item: `ex-${i}`, annotator, labels: { overall: LABELS[i % 3] } })),
        ).flat(),
      ),
    );
    const study = JSON.parse(
      concord(['study', 'create', '--kind', 'pairwise', '--name', 'Examples e2e', '--reviewers', '2', '--criteria', 'none', '--json']),
    ).id as number;
    concord(['import', 'items', '--study', String(study), path.join(dir, 'items.jsonl')]);
    concord(['import', 'annotations', '--study', String(study), path.join(dir, 'annotations.jsonl')]);
    concord([
      'judge',
      'endpoint',
      'add',
      '--name',
      'stand-in-examples',
      '--url',
      standIn.url,
      '--models',
      'm',
      '--price-in',
      '1',
      '--price-out',
      '2',
    ]);

    await signInContext(page.context(), 'lead');
    await page.goto(`/studies/${study}/judges`);
    const form = page.getByRole('form', { name: 'Start a judge run' });
    const startRun = async (name: string) => {
      await form.getByLabel('Endpoint', { exact: true }).selectOption('stand-in-examples');
      await form.getByLabel('Run name').fill(name);
      await form.getByLabel(/Send both orders/).uncheck();
      await form.getByRole('button', { name: 'Start run' }).click();
      await expect(page.getByRole('listitem', { name: `Judge run ${name}` }).getByTestId('run-state')).toHaveText('done', {
        timeout: 60_000,
      });
    };
    await startRun('plain');

    // The items the judge got wrong, from the run's row.
    const plain = page.getByRole('listitem', { name: 'Judge run plain' });
    await plain.getByRole('button', { name: 'New version from disagreements' }).click();
    const examples = plain.getByRole('form', { name: 'New version from the disagreements of plain' });
    const count = Number(await examples.getByTestId('disagreement-count').textContent());
    expect(count).toBeGreaterThanOrEqual(2);
    await expect(examples.getByRole('list', { name: 'Items the judge got wrong' }).getByRole('listitem')).toHaveCount(count);
    await examples.getByLabel('Examples (k)').fill('2');
    await examples.getByLabel('Seed', { exact: true }).fill('4');
    await examples.getByRole('button', { name: 'Make the new version' }).click();
    const made = examples.getByRole('status');
    await expect(made).toContainText('Made pairwise-criterion v2 with 2 worked examples');
    // the new version is in the editor, ready to run
    await expect(page.getByRole('textbox', { name: /^Template/ })).toHaveValue(/"examples"/);
    await startRun('with-examples');
    await expect(page.getByRole('listitem', { name: 'Judge run with-examples' })).toContainText('pairwise-criterion v2');

    // Compared: both runs scored on the items that are not examples, and the page says why.
    await page.getByLabel('Compare plain').check();
    await page.getByLabel('Compare with-examples').check();
    await page.getByRole('link', { name: 'Compare the selected runs' }).click();
    await expect(page.getByTestId('left-out')).toHaveText(
      "2 items are worked examples in version 2 of pairwise-criterion (run with-examples): these 2 items are left out of every run's alignment and κ here.",
    );
    const table = page.getByRole('table', { name: 'Judge runs compared' });
    await expect(table.getByRole('row', { name: /^Labels compared/ })).toHaveText(`Labels compared${ITEMS - 2}${ITEMS - 2}`);
    await expect(table.getByRole('row', { name: /^Estimated cost/ })).toContainText('$');

    // The lead ticks the items instead (on a fresh page: the form of the draw above stays open across the comparison).
    await page.reload();
    const again = page.getByRole('listitem', { name: 'Judge run plain' });
    await again.getByRole('button', { name: 'New version from disagreements' }).click();
    const choose = again.getByRole('form', { name: 'New version from the disagreements of plain' });
    await choose.getByLabel('I choose the items').check();
    const first = (await choose
      .getByRole('list', { name: 'Items the judge got wrong' })
      .getByRole('listitem')
      .first()
      .locator('.font-mono')
      .textContent())!;
    await choose.getByLabel(`Use ${first} as a worked example`).check();
    await choose.getByRole('button', { name: 'Make the new version' }).click();
    await expect(choose.getByRole('status')).toContainText(`Made pairwise-criterion v3 with 1 worked example (${first})`);

    // The same over the HTTP API, with a lead's token: the seed of the browser gives the browser's version back.
    const token = (JSON.parse(concord(['token', 'create', '--user', 'lead', '--name', 'examples-e2e', '--json'])) as { token: string })
      .token;
    const res = await request.post(`/api/v1/studies/${study}/judge-runs/plain/examples`, {
      headers: { authorization: `Bearer ${token}` },
      data: { k: 2, seed: 4 },
    });
    expect(res.status()).toBe(201);
    const body = await res.json();
    expect(body.template).toMatchObject({ name: 'pairwise-criterion', version: 2 });
    expect(body.examples).toHaveLength(2);
    const refused = await request.post(`/api/v1/studies/${study}/judge-runs/plain/examples`, {
      headers: { authorization: `Bearer ${token}` },
      data: { k: ITEMS + 1 },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).detail).toMatch(/disagreed with the settled ground truth on \d+ items/);
  } finally {
    await standIn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The same on a rubric study (the shipped ok-reject catalog): a run whose template maps the stand-in's first / second /
// tie to OK / REJECT / OK, a new version from the replies it got wrong, a run of it, and the rubric comparison that
// leaves those replies out and says so.
test('a lead makes a new template version from a rubric run’s disagreements and compares the runs without the examples', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const standIn = await startStandIn();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-rubric-examples-'));
  const REPLIES = 10;
  try {
    const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    fs.writeFileSync(
      path.join(dir, 'items.jsonl'),
      jsonl(
        Array.from({ length: REPLIES }, (_, i) => ({
          id: `rx-${i}`,
          history: [{ role: 'student', text: `Is ${i} times 3 equal to ${3 * i + 1}?` }],
          reply: { source: `t${i % 2}`, text: `Count again: ${i} times 3 is not ${3 * i + 1}.` },
        })),
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'annotations.jsonl'),
      jsonl(
        Array.from({ length: REPLIES }, (_, i) =>
          ['rx-ann1', 'rx-ann2'].map((annotator) => ({
            item: `rx-${i}`,
            annotator,
            labels: { leakage: i % 3 ? 'OK' : 'REJECT', helpful: i % 2 ? 'OK' : 'REJECT' },
          })),
        ).flat(),
      ),
    );
    const study = JSON.parse(
      concord([
        'study',
        'create',
        '--kind',
        'rubric',
        '--name',
        'Rubric examples e2e',
        '--dimensions',
        'ok-reject',
        '--reviewers',
        '2',
        '--json',
      ]),
    ).id as number;
    concord(['import', 'items', '--study', String(study), path.join(dir, 'items.jsonl')]);
    concord(['import', 'annotations', '--study', String(study), path.join(dir, 'annotations.jsonl')]);
    concord(['judge', 'endpoint', 'add', '--name', 'stand-in-rubric-examples', '--url', standIn.url, '--models', 'm']);

    await signInContext(page.context(), 'lead');
    await page.goto(`/studies/${study}/judges`);
    await page.getByRole('textbox', { name: /^Template/ }).fill(
      JSON.stringify({
        name: 'ok-words',
        user: 'Dialogue: {{history}}\nReply: {{reply}}\nQuestion: {{criterion.name}}',
        answer: { pattern: '"winner": "(first|second|tie)"', map: { first: 'OK', second: 'REJECT', tie: 'OK' } },
      }),
    );
    const form = page.getByRole('form', { name: 'Start a judge run' });
    const startRun = async (name: string) => {
      await form.getByLabel('Endpoint', { exact: true }).selectOption('stand-in-rubric-examples');
      await form.getByLabel('Run name').fill(name);
      await form.getByRole('button', { name: 'Start run' }).click();
      await expect(page.getByRole('listitem', { name: `Judge run ${name}` }).getByTestId('run-state')).toHaveText('done', {
        timeout: 60_000,
      });
    };
    await startRun('plain');

    const plain = page.getByRole('listitem', { name: 'Judge run plain' });
    await plain.getByRole('button', { name: 'New version from disagreements' }).click();
    const examples = plain.getByRole('form', { name: 'New version from the disagreements of plain' });
    const count = Number(await examples.getByTestId('disagreement-count').textContent());
    expect(count).toBeGreaterThanOrEqual(2);
    await expect(examples.getByRole('list', { name: 'Items the judge got wrong' }).getByRole('listitem')).toHaveCount(count);
    await examples.getByLabel('Examples (k)').fill('2');
    await examples.getByLabel('Seed', { exact: true }).fill('4');
    await examples.getByRole('button', { name: 'Make the new version' }).click();
    await expect(examples.getByRole('status')).toContainText('Made ok-words v2 with 2 worked examples');
    await expect(page.getByRole('textbox', { name: /^Template/ })).toHaveValue(/"examples"/);
    await startRun('with-examples');
    await expect(page.getByRole('listitem', { name: 'Judge run with-examples' })).toContainText('ok-words v2');

    await page.getByLabel('Compare plain').check();
    await page.getByLabel('Compare with-examples').check();
    await page.getByRole('link', { name: 'Compare the selected runs' }).click();
    await expect(page.getByTestId('left-out')).toHaveText(
      "2 items are worked examples in version 2 of ok-words (run with-examples): these 2 items are left out of every run's accuracy, macro-F1 and κ here.",
    );
    // Both dimensions of the 8 other replies, for each run.
    const table = page.getByRole('table', { name: 'Judge runs compared' });
    await expect(table.getByRole('row', { name: /^Labels compared/ })).toHaveText(
      `Labels compared${(REPLIES - 2) * 2}${(REPLIES - 2) * 2}`,
    );
  } finally {
    await standIn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
