import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { publicDataDir } from '../lib/io/public-data';
import { AUTH_SECRET, OwnServer } from './support/server';
import { DEMO_PASSWORD } from './support/session';
import { tempDir } from '../test/temp-dir';

/*
 * The demo on a machine without the public datasets: the sign-in page says what this database holds and what is
 * missing, an annotator whose studies all need public data is told why their page is empty, and data fetched later
 * reaches the running demo through the seed.
 */

const dir = tempDir('concord-offline-');
const none = path.join(dir, 'no-public-data');
const some = path.join(dir, 'some-public-data');
const db = path.join(dir, 'concord.db');
const server = new OwnServer(db, 3922, { CONCORD_PUBLIC_DATA: none });
const seed = (data: string) =>
  execFileSync(process.execPath, ['lib/cli/bin.mjs', 'seed', '--if-empty'], {
    env: { ...process.env, CONCORD_DB: db, CONCORD_PUBLIC_DATA: data, AUTH_SECRET, NODE_ENV: 'production' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

test.beforeAll(async () => {
  fs.mkdirSync(none);
  seed(none);
  await server.start();
});

test.afterAll(async () => {
  await server.kill9();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an offline demo says what it holds and why an annotator has nothing yet; fetched data reaches it', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await expect(page.getByTestId('demo-holds')).toHaveText(
    'It holds 3 studies: KMP-style flows, KMP-style pairwise, Rubric example (hand-written).',
  );
  await expect(page.getByTestId('demo-missing')).toContainText('MathDial flows');
  await expect(page.getByTestId('demo-missing')).toContainText('npx concord data fetch');
  const ann3 = page
    .getByTestId('demo-accounts')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'ann3', exact: true }) });
  await expect(ann3).toContainText('Nothing in this database yet');

  await page.getByLabel('Username').fill('ann3');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Nothing is assigned to you yet.')).toBeVisible();
  const why = page.getByTestId('demo-missing-for-me');
  await expect(why).toContainText('MathDial flows');
  await expect(why).toContainText('AITutor-EvalKit sample');

  // MathDial arrives; the seed adds its study to the demo the server is running on.
  fs.mkdirSync(path.join(some, 'mathdial'), { recursive: true });
  fs.copyFileSync(path.join(publicDataDir(), 'mathdial', 'test.jsonl'), path.join(some, 'mathdial', 'test.jsonl'));
  expect(seed(some)).toContain('Added 1 demo study to the demo database.');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'MathDial flows' })).toBeVisible();
  await expect(page.getByTestId('demo-missing-for-me')).toHaveCount(0);
  await context.close();

  const signedOut = await browser.newContext({ baseURL: server.baseURL });
  const signIn = await signedOut.newPage();
  await signIn.goto('/sign-in');
  await expect(signIn.getByTestId('demo-holds')).toContainText('It holds 4 studies');
  const row = signIn
    .getByTestId('demo-accounts')
    .getByRole('row')
    .filter({ has: signIn.getByRole('cell', { name: 'ann3', exact: true }) });
  await expect(row).toContainText('Here: MathDial flows.');
  await signedOut.close();
});
