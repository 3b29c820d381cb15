import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Issue 28 on the dashboards: error-bounded acceptance beside Padó's plan on the Hybrid tab, and the calibration of a
 * judge that gave several verdicts per item on the Bias tab. The figures on the screen are those of the report JSON,
 * which is `concord report … --json` (the service tests hold that JSON to lib/stats).
 * Run: npx next build, then E2E_PORT=3880 npx playwright test e2e/acceptance.spec.ts
 */
const PANDALM = 5; // the demo seed's PandaLM test set: GPT-3.5 and PandaLM-7B as judges, every item with ground truth
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

test('a lead compares the guaranteed acceptance with Padó’s plan on PandaLM and changes ε', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  // The run the JSON below reads (the dashboard opens on the newest run with verdicts otherwise).
  await page.goto(`/studies/${PANDALM}/analytics/hybrid?judge=gpt-3.5-turbo`);
  const card = page.getByTestId('acceptance-card');
  const json = JSON.parse(concord(['report', 'hybrid', '--study', String(PANDALM), '--judge', 'gpt-3.5-turbo', '--json']));
  const a = json.acceptance;
  expect([a.epsilon, a.delta]).toEqual([0.05, 0.05]);
  await expect(card.getByTestId('accepted-share')).toHaveText(pct(a.acceptedShare));
  await expect(card.getByTestId('pado-share')).toHaveText(pct(a.pado.acceptedShare));
  await expect(card.getByTestId('error-bound')).toHaveText(a.errorBound === null ? 'none' : `< ${a.epsilon * 100} %`);
  await expect(card.getByTestId('acceptance-verdict')).toContainText(`Padó’s plan keeps “${a.pado.acceptedClass}”`);
  await expect(card.getByTestId('acceptance-strata').locator('tbody tr')).toHaveCount(a.strata.length);

  // A looser ε: the report is recomputed, the address keeps it, and the card shows the new report's figures.
  await card.getByTestId('epsilon-select').selectOption('0.2');
  await expect(page).toHaveURL(/epsilon=0.2/);
  const loose = JSON.parse(
    concord(['report', 'hybrid', '--study', String(PANDALM), '--judge', 'gpt-3.5-turbo', '--epsilon', '0.2', '--json']),
  ).acceptance;
  await expect(card.getByTestId('accepted-share')).toHaveText(pct(loose.acceptedShare));
  const csv = await page.request.get(`/api/studies/${PANDALM}/reports/hybrid?judge=gpt-3.5-turbo&epsilon=0.2&format=csv&table=strata`);
  expect(csv.status()).toBe(200);
  expect((await csv.text()).split('\r\n')[0]).toContain('"label","n","errors","pool"');
  await context.close();
});

test('the Bias tab draws the reliability diagram of a judge that judged both orders, and says what the others lack', async ({
  browser,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-calibration-'));
  const write = (name: string, rows: object[]) => {
    fs.writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
    return path.join(dir, name);
  };
  // Ten items: the judge's two orders agree on the first six (four of them right), disagree on the last four.
  const ids = Array.from({ length: 10 }, (_, k) => `cal-${k}`);
  const gold = ['win', 'win', 'lose', 'lose', 'tie', 'win', 'win', 'lose', 'tie', 'win'];
  const first = ['win', 'win', 'lose', 'lose', 'win', 'lose', 'win', 'lose', 'tie', 'lose'];
  const second = ['win', 'win', 'lose', 'lose', 'win', 'lose', 'lose', 'tie', 'lose', 'win'];
  const studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Calibration check', '--reviewers', '1', '--criteria', 'none', '--json']),
  ).id;
  concord([
    'import',
    'items',
    '--study',
    String(studyId),
    write(
      'items.jsonl',
      ids.map((id) => ({
        id,
        problem: `Problem ${id}`,
        a: { source: 'm', text: `Reply a ${id}` },
        b: { source: 'r', text: `Reply b ${id}` },
      })),
    ),
  ]);
  concord([
    'import',
    'annotations',
    '--study',
    String(studyId),
    write(
      'gold.jsonl',
      ids.map((item, k) => ({ item, annotator: 'expert', labels: { overall: gold[k] } })),
    ),
  ]);
  concord([
    'import',
    'judge',
    '--study',
    String(studyId),
    write(
      'judge.jsonl',
      ids.flatMap((item, k) => [
        { item, judge: 'two-orders', labels: { overall: first[k] }, swapped: false },
        { item, judge: 'two-orders', labels: { overall: second[k] }, swapped: true },
      ]),
    ),
  ]);
  concord([
    'import',
    'judge',
    '--study',
    String(studyId),
    write(
      'one.jsonl',
      ids.map((item, k) => ({ item, judge: 'one-order', labels: { overall: first[k] }, swapped: false })),
    ),
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
  const json = JSON.parse(concord(['report', 'bias', '--study', String(studyId), '--json']));
  expect(json.calibration).toHaveLength(1);
  const c = json.calibration[0];

  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/analytics/bias`);
  const card = page.getByTestId('calibration-card');
  const row = card.getByTestId('calibration-table').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('two-orders');
  await expect(row).toContainText(c.ece.toFixed(3));
  await expect(row).toContainText(c.brierTopLabel.toFixed(3));
  // Two verdicts per item: confidence ½ or 1, so two bins hold items.
  await expect(card.getByRole('img', { name: /Reliability diagram of two-orders on overall/ }).getByTestId('reliability-bin')).toHaveCount(
    c.reliability.filter((b: { n: number }) => b.n > 0).length,
  );
  await expect(card.getByTestId('calibration-missing')).toHaveText(/^one-order: one verdict per item and no confidence/);

  // The demo's PandaLM runs judged one order only: the card says so in one line.
  await page.goto(`/studies/${PANDALM}/analytics/bias`);
  await expect(page.getByTestId('calibration-missing')).toContainText('gpt-3.5-turbo, pandalm-7b: one verdict per item');
  await expect(page.getByTestId('calibration-table')).toHaveCount(0);
  await context.close();
});

test('the HTTP API serves the acceptance and the calibration with ε and δ as query parameters, as the CLI prints them', async ({
  request,
}) => {
  const token = (JSON.parse(concord(['token', 'create', '--user', 'lead', '--name', 'acceptance-spec', '--json'])) as { token: string })
    .token;
  const headers = { authorization: `Bearer ${token}` };
  const res = await request.get(`/api/v1/studies/${PANDALM}/reports/hybrid?judge=gpt-3.5-turbo&epsilon=0.3&delta=0.1`, { headers });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.acceptance).toMatchObject({ epsilon: 0.3, delta: 0.1, method: 'holm' });
  expect(body).toEqual(
    JSON.parse(
      concord(['report', 'hybrid', '--study', String(PANDALM), '--judge', 'gpt-3.5-turbo', '--epsilon', '0.3', '--delta', '0.1', '--json']),
    ),
  );
  const bad = await request.get(`/api/v1/studies/${PANDALM}/reports/hybrid?judge=gpt-3.5-turbo&delta=1`, { headers });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).detail).toContain('delta');
  const bias = await request.get(`/api/v1/studies/${PANDALM}/reports/bias`, { headers });
  expect(bias.status()).toBe(200);
  expect((await bias.json()).uncalibrated).toEqual(['gpt-3.5-turbo', 'pandalm-7b']);
});
