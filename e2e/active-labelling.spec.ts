import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Active labelling from the hybrid plan's queue form (issue 28): a pairwise study of 60 items the judge labelled in
 * both orders — its two orders disagree on the first 20 — and 10 of them already labelled by people. The lead opens a
 * queue in active order; the draw is stored, the drawn items go to the reviewer, and the leaderboard and the
 * certification say they now use the inverse-probability-weighted estimator, in the browser, the API and the CLI alike.
 */
const RUN = 'active-judge';
let study = 0;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-active-'));
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return file;
  };
  const ids = Array.from({ length: 60 }, (_, k) => `active-${k}`);
  study = (
    JSON.parse(
      concord(['study', 'create', '--kind', 'pairwise', '--name', 'Active labelling', '--criteria', 'none', '--reviewers', '1', '--json']),
    ) as {
      id: number;
    }
  ).id;
  concord([
    'import',
    'items',
    '--study',
    String(study),
    write(
      'items.jsonl',
      ids.map((id) => ({
        id,
        problem: `Active problem ${id}`,
        a: { source: 'model-x', text: `Reply x ${id}` },
        b: { source: 'ref', text: `Reply r ${id}` },
      })),
    ),
  ]);
  concord([
    'import',
    'judge',
    '--study',
    String(study),
    '--judge',
    RUN,
    write('judge.jsonl', [
      ...ids.map((item) => ({ item, judge: RUN, labels: { overall: 'win' } })),
      ...ids.map((item, k) => ({ item, judge: RUN, swapped: true, labels: { overall: k < 20 ? 'lose' : 'win' } })),
    ]),
  ]);
  concord([
    'import',
    'annotations',
    '--study',
    String(study),
    write(
      'prior.jsonl',
      ids.slice(50).map((item) => ({ item, annotator: 'active-expert', labels: { overall: 'win' } })),
    ),
  ]);
  concord(['study', 'open', String(study), '--unassigned']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a lead opens a queue in active order and the reports say they weight its labels', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${study}/analytics/hybrid?judge=${RUN}`);
  const form = page.getByRole('form', { name: 'Open a review queue' });
  await form.getByLabel('Order').selectOption('active');
  await expect(form.getByLabel('Uncertainty from')).toHaveValue('orders');
  await form.getByLabel('Budget').fill('0.3');
  await form.getByLabel('τ (floor)').fill('0.5');
  await form.getByRole('checkbox', { name: 'Annotator One' }).check();
  await form.getByRole('button', { name: 'Open review queue' }).click();
  const status = form.getByRole('status');
  await expect(status).toContainText(/Drew \d+ of 50 item\(s\) \(15\.0 expected\) by the disagreement of the two orders: ann1 \d+\./);
  const drawn = Number(/Drew (\d+)/.exec((await status.textContent()) ?? '')![1]);
  expect(drawn).toBeGreaterThan(0);

  // The leaderboard: the corrected rate now comes from the draw, with its drawn labels still pending.
  await page.goto(`/studies/${study}/analytics/leaderboard`);
  const explanation = page.getByTestId('corrected-estimator');
  await expect(explanation).toContainText('active labelling');
  await expect(explanation).toContainText(`0 of the ${drawn} items drawn`);
  await expect(explanation).toContainText('10 labelled before the draw');
  await expect(explanation).toContainText(`${drawn} drawn item(s) still without ground truth`);

  // The API and the CLI give the same report, with the estimator named.
  const api = await (await page.request.get(`/api/studies/${study}/reports/leaderboard?bootstrap=0`)).json();
  const cli = JSON.parse(concord(['report', 'leaderboard', '--study', String(study), '--bootstrap', '0', '--json']));
  expect(api).toEqual(cli);
  expect(api.corrected[0].cells[0]).toMatchObject({
    estimator: 'active_ipw',
    active: { pool: 50, drawn, pending: drawn, labelledBefore: 10 },
  });
  // The public API, with a lead's token, reads the same registry.
  const { token } = JSON.parse(concord(['token', 'create', '--user', 'lead', '--name', 'active-labelling', '--json'])) as { token: string };
  const v1 = await page.request.get(`/api/v1/studies/${study}/reports/leaderboard?bootstrap=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(v1.status()).toBe(200);
  expect((await v1.json()).corrected[0].cells[0]).toEqual(cli.corrected[0].cells[0]);
  const cert = JSON.parse(concord(['report', 'certify', '--study', String(study), '--judge', RUN, '--json']));
  expect(cert).toMatchObject({ estimator: 'active_ipw', active: { pool: 50, drawn, pending: drawn } });

  // The certification card names its estimator too.
  await page.goto(`/studies/${study}/analytics/alignment?judge=${RUN}`);
  await expect(page.getByTestId('certify-estimator')).toContainText('Estimator: active labelling');
  await expect(page.getByTestId('certify-estimator')).toContainText(`${drawn} drawn item(s) still await a label`);
  await context.close();
});

// The judge's verbalised confidence as the uncertainty: a run imported with a confidence per verdict (low on the
// first 10 of 40 items), chosen on the queue form; the stored draw's source is named in the report over the API and
// the CLI alike.
test('a lead draws by the judge’s own confidence, and the reports name that source', async ({ browser }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-active-confidence-'));
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return file;
  };
  const ids = Array.from({ length: 40 }, (_, k) => `confident-${k}`);
  const id = (
    JSON.parse(
      concord([
        'study',
        'create',
        '--kind',
        'pairwise',
        '--name',
        'Active by confidence',
        '--criteria',
        'none',
        '--reviewers',
        '1',
        '--json',
      ]),
    ) as { id: number }
  ).id;
  concord([
    'import',
    'items',
    '--study',
    String(id),
    write(
      'items.jsonl',
      ids.map((item) => ({
        id: item,
        problem: `Problem ${item}`,
        a: { source: 'model-y', text: `Y ${item}` },
        b: { source: 'ref', text: `R ${item}` },
      })),
    ),
  ]);
  concord([
    'import',
    'judge',
    '--study',
    String(id),
    '--judge',
    'verbal',
    write(
      'judge.jsonl',
      ids.map((item, k) => ({ item, judge: 'verbal', labels: { overall: 'win' }, confidence: k < 10 ? 0.55 : 0.95 })),
    ),
  ]);
  concord(['study', 'open', String(id), '--unassigned']);
  fs.rmSync(dir, { recursive: true, force: true });

  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${id}/analytics/hybrid?judge=verbal`);
  const form = page.getByRole('form', { name: 'Open a review queue' });
  await form.getByLabel('Order').selectOption('active');
  await form.getByLabel('Uncertainty from').selectOption('confidence');
  await form.getByLabel('Budget').fill('0.25');
  await form.getByLabel('τ (floor)').fill('0.2');
  await form.getByRole('checkbox', { name: 'Annotator One' }).check();
  await form.getByRole('button', { name: 'Open review queue' }).click();
  await expect(form.getByRole('status')).toContainText(
    /Drew \d+ of 40 item\(s\) \(10\.0 expected\) by the judge’s own confidence: ann1 \d+\./,
  );

  const cli = JSON.parse(concord(['report', 'leaderboard', '--study', String(id), '--bootstrap', '0', '--json']));
  expect(cli.corrected[0].cells[0]).toMatchObject({ estimator: 'active_ipw', active: { pool: 40, source: 'confidence' } });
  const api = await (await page.request.get(`/api/studies/${id}/reports/leaderboard?bootstrap=0`)).json();
  expect(api).toEqual(cli);
  await context.close();
});

test('the HTTP API opens a queue in either order, as the form and the command line do', async ({ request }) => {
  const bearer = (user: string) => {
    const { token } = JSON.parse(concord(['token', 'create', '--user', user, '--name', `queues-${user}`, '--json'])) as { token: string };
    return { authorization: `Bearer ${token}` };
  };
  const url = `/api/v1/studies/${study}/review-queues`;
  const lead = bearer('lead');
  expect((await request.post(url, { headers: bearer('ann1'), data: { judge: RUN, usernames: ['ann1'] } })).status()).toBe(403);

  const mixed = await request.post(url, { headers: lead, data: { judge: RUN, usernames: ['ann2'], order: 'active', plan: 'guaranteed' } });
  expect(mixed.status()).toBe(400);
  expect(JSON.stringify(await mixed.json())).toContain('plan: not an option of the active order');

  const active = await request.post(url, {
    headers: lead,
    data: { judge: RUN, usernames: ['ann2'], order: 'active', budget: 0.5, tau: 0.5 },
  });
  expect(active.status()).toBe(200);
  const draw = (await active.json()) as { source: string; pool: number; drawn: number; assignments: { username: string; items: number }[] };
  expect(draw.source).toBe('orders');
  expect(draw.drawn).toBeGreaterThan(0);
  expect(draw.assignments).toEqual([{ username: 'ann2', items: draw.drawn }]);
  // The draw is the one the reports now weight.
  const board = JSON.parse(concord(['report', 'leaderboard', '--study', String(study), '--bootstrap', '0', '--json']));
  expect(board.corrected[0].cells[0]).toMatchObject({
    estimator: 'active_ipw',
    active: { pool: draw.pool, drawn: draw.drawn, source: 'orders' },
  });

  // ε = 1 % accepts no class on so few labels: every judged item not yet sent goes to people.
  const uniform = await request.post(url, { headers: lead, data: { judge: RUN, usernames: ['ann1'], plan: 'guaranteed', epsilon: 0.01 } });
  expect(uniform.status()).toBe(200);
  const queued = (await uniform.json()) as { routed: number; extra: number; assignments: { username: string; items: number }[] };
  expect(queued.routed).toBeGreaterThan(0);
  expect(queued.assignments).toEqual([{ username: 'ann1', items: queued.routed + queued.extra }]);
});
