import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseCsv } from '../test/csv';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * The annotator quality report and the exclusion of an annotator, end to end on the production build: a pairwise
 * study of its own (made with the CLI) where three of five reviewers give the true label, `ann-straight` says win on
 * every item and `ann-contra` the opposite of the truth. Over the HTTP API (a lead's token; an annotator's is
 * refused) and in the browser (the Annotators tab: sorting, the items behind a figure, exclude with confirm, undo).
 */
const TRUTH = 'WLTWLTWWLLTW';
const L = { W: 'win', L: 'lose', T: 'tie' } as const;
const flip = (t: string) => (t === 'W' ? 'L' : 'W');
const GIVEN: Record<string, string> = {
  'ann-contra': [...TRUTH].map(flip).join(''),
  'ann-g1': TRUTH,
  'ann-g2': TRUTH.slice(0, 2) + 'W' + TRUTH.slice(3),
  'ann-g3': TRUTH.slice(0, 6) + 'L' + TRUTH.slice(7),
  'ann-straight': 'W'.repeat(12),
};
const ITEMS = [...TRUTH].map((_, k) => `q${String(k + 1).padStart(2, '0')}`);
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

let studyId = 0;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-annotators-'));
  studyId = (
    JSON.parse(
      concord(
        ['study', 'create', '--kind', 'pairwise', '--name', 'Annotator quality e2e', '--reviewers', '5', '--criteria', 'none'].concat([
          '--ground-truth',
          'majority',
          '--json',
        ]),
      ),
    ) as { id: number }
  ).id;
  const items = path.join(dir, 'items.jsonl');
  fs.writeFileSync(
    items,
    jsonl(
      ITEMS.map((id) => ({
        id,
        problem: `Problem ${id}`,
        a: { source: 'm1', text: `Reply a ${id}` },
        b: { source: 'ref', text: `Reply b ${id}` },
      })),
    ),
  );
  concord(['import', 'items', '--study', String(studyId), items]);
  const annotations = path.join(dir, 'annotations.jsonl');
  fs.writeFileSync(
    annotations,
    jsonl(
      ITEMS.flatMap((item, k) =>
        Object.keys(GIVEN).map((annotator) => ({ item, annotator, labels: { overall: L[GIVEN[annotator][k] as keyof typeof L] } })),
      ),
    ),
  );
  concord(['import', 'annotations', '--study', String(studyId), annotations]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the API serves the report and excludes and includes an annotator; an annotator is refused', async ({ request }) => {
  const token = (user: string, name: string) =>
    (JSON.parse(concord(['token', 'create', '--user', user, '--name', name, '--json'])) as { token: string }).token;
  const lead = { authorization: `Bearer ${token('lead', 'annotators-e2e')}` };
  const annotator = { authorization: `Bearer ${token('ann1', 'annotators-e2e')}` };

  const report = await request.get(`/api/v1/studies/${studyId}/reports/annotators`, { headers: lead });
  expect(report.status()).toBe(200);
  const json = await report.json();
  expect(json.rows.map((r: { username: string }) => r.username)).toEqual(Object.keys(GIVEN).sort());
  const straight = json.rows.find((r: { username: string }) => r.username === 'ann-straight');
  expect(straight).toMatchObject({ mostUsedLabel: 'win', mostUsedShare: 1, longestRun: 12 });
  const contra = json.rows.find((r: { username: string }) => r.username === 'ann-contra');
  expect(contra.accuracy).toMatchObject({ n: 11, k: 0, rate: 0 });
  // The same JSON as the command line prints.
  expect(json).toEqual(JSON.parse(concord(['report', 'annotators', '--study', String(studyId), '--json'])));

  const groundTruthLines = async () =>
    (await (await request.get(`/api/v1/studies/${studyId}/ground-truth`, { headers: lead })).text()).trim().split('\n').length;
  expect(await groundTruthLines()).toBe(12);

  const url = `/api/v1/studies/${studyId}/exclusions/${contra.userId}`;
  expect((await request.post(url, { headers: annotator })).status()).toBe(403);
  const excluded = await request.post(url, { headers: lead });
  expect(excluded.status()).toBe(200);
  expect(await excluded.json()).toMatchObject({ labels: 12, annotators: [{ username: 'ann-contra', labels: 12, excludedBy: 'lead' }] });
  // Without ann-contra, x03 splits 2 : 2 under the majority rule: left out of the ground truth.
  expect(await groundTruthLines()).toBe(11);
  const agreement = await (await request.get(`/api/v1/studies/${studyId}/reports/agreement?bootstrap=0`, { headers: lead })).json();
  expect(agreement.excluded).toMatchObject({ labels: 12, annotators: [{ username: 'ann-contra' }] });
  expect(await (await request.get(`/api/v1/studies/${studyId}/exclusions`, { headers: lead })).json()).toMatchObject({ labels: 12 });

  expect((await request.delete(url, { headers: annotator })).status()).toBe(403);
  const included = await request.delete(url, { headers: lead });
  expect(await included.json()).toEqual({ labels: 0, annotators: [] });
  expect(await groundTruthLines()).toBe(12);
});

test('a lead reads the Annotators tab, sorts it, opens the items behind a figure, excludes an annotator and undoes it', async ({
  browser,
}) => {
  const { page, context } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}/analytics/agreement`);
  await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Annotators' }).click();
  const table = page.getByTestId('annotators-table');
  const rows = table.getByTestId('annotator-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toHaveAttribute('data-username', 'ann-contra');

  // Sorted by the share of the most used label, largest first: the straight-liner on top at 100 %.
  await table.getByRole('button', { name: /Most used label/ }).click();
  await expect(rows.first()).toHaveAttribute('data-username', 'ann-straight');
  await expect(rows.first().getByTestId('most-used-share')).toHaveText('100.0 %');
  await expect(rows.first().getByTestId('longest-run')).toHaveText('12');
  // Sorted by accuracy, smallest first (a second click turns the order): the contrarian on top at 0 %.
  await table.getByRole('button', { name: /Accuracy/ }).click();
  await table.getByRole('button', { name: /Accuracy/ }).click();
  const contra = rows.first();
  await expect(contra).toHaveAttribute('data-username', 'ann-contra');
  await expect(contra.getByTestId('accuracy')).toContainText('0.0 %');

  // The items behind the figure: the contrarian's disagreements, each a link to its item.
  await contra.getByTestId('disagreements').locator('summary').click();
  await expect(contra.getByTestId('disagreements').getByRole('link', { name: 'q01' })).toBeVisible();

  // The CSV of the table, from the same column specs.
  const csv = await (await page.request.get(`/api/studies/${studyId}/reports/annotators?format=csv&table=annotators`)).text();
  const lines = parseCsv(csv);
  expect(lines[0]).toEqual(expect.arrayContaining(['unit', 'annotator', 'accuracy', 'accuracy_lower', 'mace_competence', 'longest_run']));
  expect(lines).toHaveLength(1 + 5);

  // Exclude, confirmed in a dialog: the row is marked, every dashboard says what is left out; then undo.
  await contra.getByRole('button', { name: 'Exclude…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Exclude ann-contra?' });
  await dialog.getByRole('button', { name: 'Exclude' }).click();
  await expect(page.getByTestId('exclusion-notice')).toContainText('ann-contra is excluded');
  const marked = table.locator('[data-username="ann-contra"]');
  await expect(marked).toContainText('excluded');
  await expect(page.getByTestId('excluded-labels')).toContainText('12 label(s) of excluded annotators');
  await expect(marked.getByTestId('mace')).toContainText('excluded');
  await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Agreement' }).click();
  await expect(page.getByTestId('excluded-labels')).toContainText('ann-contra (12)');
  await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Annotators' }).click();
  await table.locator('[data-username="ann-contra"]').getByRole('button', { name: 'Include again' }).click();
  await expect(page.getByTestId('excluded-labels')).toHaveCount(0);
  await expect(table.locator('[data-username="ann-contra"]')).not.toContainText('excluded');

  // Undo from the notice after an exclusion.
  await table.locator('[data-username="ann-straight"]').getByRole('button', { name: 'Exclude…' }).click();
  await page.getByRole('dialog', { name: 'Exclude ann-straight?' }).getByRole('button', { name: 'Exclude' }).click();
  await expect(page.getByTestId('excluded-labels')).toContainText('ann-straight (12)');
  await page.getByTestId('exclusion-notice').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('exclusion-notice')).toContainText('ann-straight is included again');
  await expect(page.getByTestId('excluded-labels')).toHaveCount(0);
  await context.close();
});
