import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cliOn, OwnServer } from './support/server';
import { asUser, DEMO_PASSWORD } from './support/session';
import { tempDir } from '../test/temp-dir';

/*
 * A newcomer's first minutes on the demo: the sign-in page names the demo accounts (and a real deployment's never
 * does), leads land on their studies, the adjudicator sees how many disagreements wait, and no study title tells
 * annotators which sources compete.
 */

test('the demo sign-in page lists every demo account with its password, role and what it sees', async ({ page }) => {
  await page.goto('/sign-in');
  const table = page.getByTestId('demo-accounts');
  await expect(table).toBeVisible();
  for (const [username, role] of [
    ['admin', 'admin'],
    ['lead', 'lead'],
    ['ann1', 'annotator'],
    ['ann4', 'annotator'],
    ['adj', 'annotator'],
  ]) {
    const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(1)).toHaveText(DEMO_PASSWORD);
    await expect(row.getByRole('cell').nth(2)).toHaveText(role);
  }
  // What the table says works: the listed password signs the lead in.
  await page.getByLabel('Username').fill('lead');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
});

test('leads and admins land on their studies, not on an empty My work', async ({ browser }) => {
  for (const who of ['lead', 'admin']) {
    const { context, page } = await asUser(browser, who);
    await page.goto('/');
    await expect(page).toHaveURL(/\/studies$/);
    await expect(page.getByRole('heading', { name: 'Studies' })).toBeVisible();
    await expect(page.getByTestId('studies-table').getByRole('link', { name: 'KMP-style pairwise' })).toBeVisible();
    await context.close();
  }
});

test("the adjudicator's home says how many disagreements wait, as many as the adjudication queue holds", async ({ browser }) => {
  const { context, page } = await asUser(browser, 'adj');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'My work' })).toBeVisible();
  const cards = page.getByRole('listitem').filter({ has: page.getByTestId('disagreements-waiting') });
  const n = await cards.count();
  expect(n).toBeGreaterThan(0);
  let waitingSomewhere = 0;
  for (let i = 0; i < n; i++) {
    const card = cards.nth(i);
    const href = await card.getByRole('link', { name: 'Adjudicate' }).getAttribute('href');
    const studyId = Number(/\/studies\/(\d+)\/adjudicate/.exec(href ?? '')?.[1]);
    const queue = (await (await page.request.get(`/api/studies/${studyId}/adjudication`)).json()) as { total: number; resolved: number };
    const open = queue.total - queue.resolved;
    const text = (await card.getByTestId('disagreements-waiting').textContent()) ?? '';
    if (open === 0) expect(text).toContain('No disagreements wait for you.');
    else expect(text).toContain(`${open.toLocaleString('en-US')} item${open === 1 ? '' : 's'} with`);
    waitingSomewhere += open;
  }
  // The PandaLM study (three annotators, majority rule) has items without a majority when its data is present.
  if (fs.existsSync(path.join(process.env.CONCORD_PUBLIC_DATA ?? path.resolve('..', 'shared', 'data'), 'pandalm', 'testset-v1.json'))) {
    expect(waitingSomewhere).toBeGreaterThan(0);
  }
  await context.close();
});

test('no demo study title tells annotators which sources compete', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'ann1');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'My work' })).toBeVisible();
  const titles = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  for (const t of titles) expect(t).not.toMatch(/GPT|expert|human|model/i);
  await context.close();
});

test.describe('a database not made by the demo seed', () => {
  // Its own server on its own database, on a port of this spec's own.
  const dir = tempDir('concord-real-');
  const server = new OwnServer(path.join(dir, 'concord.db'), 3541);
  test.beforeAll(async () => {
    cliOn(server.db, ['user', 'add', 'rita', '--role', 'lead', '--name', 'Rita Lead'], 'a-long-password-1\n');
    await server.start();
  });
  test.afterAll(async () => {
    await server.kill9();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('never lists accounts on its sign-in page; its lead still lands on the studies', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.getByText('Demo accounts')).toHaveCount(0);
    await expect(page.getByText(DEMO_PASSWORD)).toHaveCount(0);
    await page.getByLabel('Username').fill('rita');
    await page.getByLabel('Password').fill('a-long-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/studies$/);
    await expect(page.getByText('No studies yet.')).toBeVisible();
    await context.close();
  });
});
