import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Active labelling on a rubric study (decision 0045), from the hybrid plan's queue form: 30 replies of two tutors the
 * judge labelled in two samples, which disagree on every third reply's "mistake_identification"; 6 replies labelled by people before. The form offers the
 * sources a rubric run has (its samples first, no two orders); the lead draws, and the corrected shares say they now
 * rest on the draw, in the browser, the API and the CLI alike.
 */
const RUN = 'rubric-active-judge';
const N = 30;
/** Replies people labelled before: the plan's calibration sample, outside the draw's pool. */
const LABELLED = 6;
let study = 0;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-rubric-active-'));
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return file;
  };
  const ids = Array.from({ length: N }, (_, k) => `ractive-${k}`);
  study = (
    JSON.parse(
      concord([
        'study',
        'create',
        '--kind',
        'rubric',
        '--dimensions',
        'mrbench-v3',
        '--name',
        'Rubric active labelling',
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
    String(study),
    write(
      'items.jsonl',
      ids.map((id, k) => ({
        id,
        group: `dialogue-${Math.floor(k / 2)}`,
        history: [{ role: 'student', text: `Student turn ${id}` }],
        reply: { source: k % 2 ? 'tutor-b' : 'tutor-a', text: `Reply ${id}` },
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
    write(
      'judge.jsonl',
      [1, 2].flatMap((sample) =>
        ids.map((item, k) => ({
          item,
          judge: RUN,
          sample,
          labels: { mistake_identification: sample === 2 && k % 3 === 0 ? 'No' : 'Yes' },
        })),
      ),
    ),
  ]);
  concord([
    'import',
    'annotations',
    '--study',
    String(study),
    write(
      'prior.jsonl',
      ids.slice(N - LABELLED).map((item) => ({ item, annotator: 'ractive-expert', labels: { mistake_identification: 'Yes' } })),
    ),
  ]);
  concord(['study', 'open', String(study), '--unassigned']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a lead opens a rubric queue in active order and the corrected shares say they weight its labels', async ({ browser }) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${study}/analytics/hybrid?judge=${RUN}`);
  const form = page.getByRole('form', { name: 'Open a review queue' });
  await form.getByLabel('Order').selectOption('active');
  const source = form.getByLabel('Uncertainty from');
  await expect(source).toHaveValue('samples');
  await expect(source.locator('option')).toHaveText([/samples/, /confidence/, /second judge run/]);
  await form.getByLabel('Budget').fill('0.4');
  await form.getByLabel('τ (floor)').fill('0.5');
  await form.getByRole('checkbox', { name: 'Annotator One' }).check();
  await form.getByRole('button', { name: 'Open review queue' }).click();
  const status = form.getByRole('status');
  await expect(status).toContainText(
    new RegExp(`Drew \\d+ of ${N - LABELLED} repl\\(ies\\) \\(9\\.6 expected\\) by the spread of the samples: ann1 \\d+\\.`),
  );
  const drawn = Number(/Drew (\d+)/.exec((await status.textContent()) ?? '')![1]);
  expect(drawn).toBeGreaterThan(0);

  // The leaderboard's corrected shares of that dimension now come from the draw, its labels still pending.
  await page.goto(`/studies/${study}/analytics/leaderboard`);
  const note = page.getByTestId('corrected-estimator');
  await expect(note).toContainText('active labelling');
  // One line per tutor: half the replies labelled before are each tutor's; none of the drawn ones is labelled yet.
  await expect(note.locator('p')).toHaveText([
    new RegExp(
      `tutor-a · Notices the mistake: active labelling — corrected by the ${LABELLED / 2} labels people gave \\(0 of the \\d+ replies drawn, .* and ${LABELLED / 2} labelled before the draw.* still await a label`,
    ),
    new RegExp(
      `tutor-b · Notices the mistake: active labelling — corrected by the ${LABELLED / 2} labels people gave \\(0 of the \\d+ replies drawn, .* and ${LABELLED / 2} labelled before the draw.* still await a label`,
    ),
  ]);

  // The report route and the CLI give the same report, with the estimator named on the draw's cells (a pool per tutor).
  const api = await (await page.request.get(`/api/studies/${study}/reports/rubric-leaderboard`)).json();
  const cli = JSON.parse(concord(['report', 'leaderboard', '--study', String(study), '--json']));
  expect(api).toEqual(cli);
  const mi = (cli.corrected[0].cells as { criterion: string }[]).filter((c) => c.criterion === 'mistake_identification');
  expect(mi.length).toBeGreaterThan(0);
  for (const c of mi) expect(c).toMatchObject({ estimator: 'active_ipw', active: { pool: (N - LABELLED) / 2 } });
  await context.close();
});
