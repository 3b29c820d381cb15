import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';
import { tempDir } from '../test/temp-dir';

/*
 * Accessibility: axe-core on every screen, as the person who uses it, with the data it shows. Serious and critical
 * violations fail the test, each named with the screen, the rule and the elements; the spec keeps them at zero.
 * The studies and people are this spec's own (the review screens, adjudication, items, study pages); the dashboards
 * and judge pages are read on the demo's studies of each kind, read-only.
 */

const RUN = Date.now() % 100_000_000;
const PASSWORD = 'a11y-pass-2026';
const who = (name: string) => `a11y${name}${RUN}`;
const ANN = who('ann');
const ANN2 = who('anntwo');
const ADJ = who('adj');
const LEAD = who('lead');
const ADMIN = who('admin');
const DATA = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');

const ids = { flow: 0, pair: 0, rubric: 0 };

function create(args: string[]): number {
  return (JSON.parse(concord(['study', 'create', ...args, '--json'])) as { id: number }).id;
}

function jsonl(rows: object[]): string {
  const file = path.join(tempDir('concord-a11y-'), 'prior.jsonl');
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

test.beforeAll(() => {
  for (const [name, role] of [
    [ANN, 'annotator'],
    [ANN2, 'annotator'],
    [ADJ, 'annotator'],
    [LEAD, 'lead'],
    [ADMIN, 'admin'],
  ] as const) {
    concord(['user', 'add', name, '--role', role, '--name', `A11y ${role}`], `${PASSWORD}\n`);
  }
  ids.flow = create(['--kind', 'flow_review', '--name', `A11y flows ${RUN}`, '--reviewers', '1']);
  concord(['import', 'items', '--study', String(ids.flow), path.join(DATA, 'flows.jsonl')]);
  concord(['study', 'members', String(ids.flow), ANN]);
  concord(['study', 'open', String(ids.flow)]);

  // Two earlier reviewers who disagree on the first pair, so the adjudicator has something to settle; the other
  // pairs go to this spec's two annotators.
  ids.pair = create(['--kind', 'pairwise', '--name', `A11y pairs ${RUN}`, '--reviewers', '2', '--criteria', 'none']);
  concord(['import', 'items', '--study', String(ids.pair), path.join(DATA, 'pairwise.jsonl')]);
  concord([
    'import',
    'annotations',
    '--study',
    String(ids.pair),
    jsonl([
      { item: 'kmp-style-pw-001', annotator: `a11yx${RUN}`, labels: { overall: 'win' } },
      { item: 'kmp-style-pw-001', annotator: `a11yy${RUN}`, labels: { overall: 'lose' } },
    ]),
  ]);
  concord(['study', 'members', String(ids.pair), ANN, ANN2, '--adjudicator', ADJ]);
  concord(['study', 'open', String(ids.pair)]);

  ids.rubric = create(['--kind', 'rubric', '--name', `A11y rubric ${RUN}`, '--dimensions', 'mrbench-v3', '--reviewers', '2']);
  concord(['import', 'items', '--study', String(ids.rubric), path.join(DATA, 'rubric.jsonl')]);
  concord([
    'import',
    'annotations',
    '--study',
    String(ids.rubric),
    jsonl([
      { item: 'rubric-ex-001-Expert', annotator: `a11yx${RUN}`, labels: { mistake_identification: 'Yes' } },
      { item: 'rubric-ex-001-Expert', annotator: `a11yy${RUN}`, labels: { mistake_identification: 'No' } },
    ]),
  ]);
  concord(['study', 'members', String(ids.rubric), ANN, ANN2, '--adjudicator', ADJ]);
  concord(['study', 'open', String(ids.rubric)]);
});

/** Serious and critical violations on the page as it now is, one line each: rule, impact, where. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

async function check(page: Page, url: string, ready: (page: Page) => Promise<void>) {
  await page.goto(url);
  await ready(page);
  expect.soft(await violations(page), `axe on ${url}`).toEqual([]);
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name }).first()).toBeVisible();
};
const main = async (page: Page) => {
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
};
/** The screen has drawn what it is for (so that axe reads the real screen, not a loading state). */
const showing = (text: string | RegExp) => async (page: Page) => {
  await main(page);
  await expect(page.locator('main')).toContainText(text);
};

test('signed out: the sign-in page and the API page', async ({ page }) => {
  await check(page, '/sign-in', heading('Concord'));
  await check(page, '/docs/api', heading('Concord HTTP API (v1)'));
});

test("an annotator's screens: My work, the three review screens, history and the account page", async ({ browser }) => {
  const { page, context } = await asUser(browser, ANN, PASSWORD);
  await check(page, '/', main);
  await check(page, `/studies/${ids.flow}/review`, showing(/verify/i));
  await check(page, `/studies/${ids.pair}/review`, showing('Response 1'));
  await check(page, `/studies/${ids.rubric}/review`, showing('Notices the mistake'));
  await check(page, `/studies/${ids.pair}/review/history`, main);
  await check(page, '/account', heading('Your account'));
  await context.close();
});

test("an adjudicator's screens: pairwise and rubric adjudication", async ({ browser }) => {
  const { page, context } = await asUser(browser, ADJ, PASSWORD);
  await check(page, '/', main);
  await check(page, `/studies/${ids.pair}/adjudicate`, showing('Lena reads 15 pages'));
  await check(page, `/studies/${ids.rubric}/adjudicate`, showing('3/4 cup of sugar'));
  await context.close();
});

test("a lead's screens: studies, a study of each kind, items, an item, the new-study form and judge runs", async ({ browser }) => {
  const { page, context } = await asUser(browser, LEAD, PASSWORD);
  await check(page, '/studies', main);
  await check(page, '/studies/new', main);
  for (const id of Object.values(ids)) {
    await check(page, `/studies/${id}`, main);
    await check(page, `/studies/${id}/items`, main);
  }
  await page.goto(`/studies/${ids.pair}/items`);
  const first = page.getByRole('link', { name: /kmp-style-pw-001/ }).first();
  await first.click();
  await main(page);
  expect.soft(await violations(page), 'axe on a pairwise item page').toEqual([]);
  await check(page, `/studies/${ids.pair}/judges`, main);
  await check(page, `/studies/${ids.rubric}/judges`, main);
  await context.close();
});

test('every dashboard tab of a pairwise and a rubric study', async ({ browser }) => {
  const { page, context } = await asUser(browser, LEAD, PASSWORD);
  for (const id of [ids.pair, ids.rubric]) {
    for (const tab of ['agreement', 'alignment', 'leaderboard', 'bias', 'hybrid']) {
      await check(page, `/studies/${id}/analytics/${tab}`, main);
    }
  }
  await context.close();
});

test("an admin's screens: accounts, judge endpoints and the account page", async ({ browser }) => {
  const { page, context } = await asUser(browser, ADMIN, PASSWORD);
  await check(page, '/admin/users', heading('Accounts'));
  await check(page, '/admin/judge-endpoints', main);
  await check(page, '/account', heading('Your account'));
  await context.close();
});
