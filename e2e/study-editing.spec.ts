import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { DEMO_PASSWORD, asUser } from './support/session';

/*
 * A lead's daily work on the studies list and an open study: find it by search, edit its name and guidelines (the
 * reviewer sees the new version), add a deadline, hand a departed reviewer's pending items to someone else, close
 * and archive it (gone from the list until the archived filter is chosen).
 */

test.describe.configure({ mode: 'serial' });

const NAME = `Editing check ${Date.now()}`;
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
let studyId: number;
const REPLACEMENT = 'replacer';

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-edit-'));
  const guidelines = path.join(dir, 'guidelines.md');
  fs.writeFileSync(guidelines, 'First version: verify each step.');
  studyId = JSON.parse(
    concord(['study', 'create', '--kind', 'flow_review', '--name', NAME, '--guidelines', guidelines, '--seed', '9', '--json']),
  ).id;
  concord(['import', 'items', '--study', String(studyId), KMP]);
  concord(['study', 'members', String(studyId), 'ann1', 'ann2']);
  concord(['study', 'open', String(studyId)]);
  // The replacement reviewer is an account of this spec's own: demo accounts are disabled or re-roled by other specs.
  concord(['user', 'add', REPLACEMENT, '--role', 'annotator'], `${DEMO_PASSWORD}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
});

const row = (page: Page, name: string) => page.getByTestId('studies-table').getByRole('row').filter({ hasText: name });

test('the studies list shows kind, status and progress, and finds a study by search', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto('/studies');
  await page.getByLabel('Search').fill(NAME);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/q=Editing/);
  await expect(page.getByTestId('studies-table').getByRole('row')).toHaveCount(2); // header + the one study
  const r = row(page, NAME);
  await expect(r).toContainText('Flow review');
  await expect(r).toContainText('open');
  await expect(r.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  await page.getByLabel('Kind').selectOption('pairwise');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No study matches.')).toBeVisible();
  await context.close();
});

test('renaming and new guidelines: the reviewer sees the new version, the old one is kept', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByLabel('Name').fill(`${NAME} (v2)`);
  await page.getByLabel(/Guidelines \(Markdown; version 1\)/).fill('Second version: also check the arithmetic.');
  await page.getByRole('button', { name: 'Save name and guidelines' }).click();
  await expect(page.getByRole('status')).toContainText('Saved');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${NAME} (v2)`);
  await page.reload();
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByText('Earlier versions (1)').click();
  await expect(page.getByTestId('guideline-versions')).toContainText('First version: verify each step.');

  const ann = await asUser(browser, 'ann1');
  await ann.page.goto(`/studies/${studyId}/review`);
  await ann.page.getByRole('button', { name: 'Guidelines', exact: true }).click();
  await expect(ann.page.getByText('Second version: also check the arithmetic.')).toBeVisible();
  await expect(ann.page.getByText('First version: verify each step.')).toHaveCount(0);
  await ann.context.close();
  await context.close();
});

test('a deadline is added, then moved; the reviewer sees it on their home page', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByLabel(/Deadline \(none yet\)/).fill('2031-03-01');
  await page.getByRole('button', { name: 'Add deadline' }).click();
  await expect(page.getByRole('status')).toContainText('Deadline set to 2031-03-01');
  await page.reload();
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByLabel(/Deadline \(now 2031-03-01\)/).fill('2031-04-15');
  await page.getByRole('button', { name: 'Move deadline' }).click();
  await expect(page.getByRole('status')).toContainText('2031-04-15');
  const ann = await asUser(browser, 'ann1');
  await ann.page.goto('/');
  await expect(ann.page.getByRole('listitem').filter({ hasText: `${NAME} (v2)` })).toContainText('Due 2031-04-15');
  await ann.context.close();
  await context.close();
});

test('a reviewer is added to the open study, once', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByRole('combobox', { name: /^Account/ }).selectOption('ann3');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('ann3 is now a reviewer of this study.');
  await page.reload();
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await expect(page.getByRole('combobox', { name: /^Reviewer/ }).getByRole('option', { name: 'ann3', exact: true })).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: /^Account/ }).getByRole('option', { name: 'ann3', exact: true })).toHaveCount(0);
  await context.close();
});

test("a departed reviewer's pending items move to the replacement, who finds them in their queue", async ({ browser }) => {
  const ann2 = await asUser(browser, 'ann2');
  await ann2.page.goto('/');
  const card = ann2.page.getByRole('listitem').filter({ hasText: `${NAME} (v2)` });
  await expect(card.getByRole('progressbar')).toBeVisible();
  const pending = Number(await card.getByRole('progressbar').getAttribute('aria-valuemax'));
  expect(pending).toBeGreaterThan(0);

  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  await page.getByText('Edit study: name, guidelines, deadline, reviewers').click();
  await page.getByRole('combobox', { name: /^Reviewer/ }).selectOption('ann2');
  await page.getByLabel('Taken over by').selectOption(REPLACEMENT);
  await page.getByRole('button', { name: 'Replace' }).click();
  await expect(page.getByRole('status')).toContainText(`${pending} pending item(s) moved from ann2 to ${REPLACEMENT}`);

  const replacer = await asUser(browser, REPLACEMENT);
  await replacer.page.goto('/');
  const theirs = replacer.page.getByRole('listitem').filter({ hasText: `${NAME} (v2)` });
  await expect(theirs.getByRole('progressbar')).toHaveAttribute('aria-valuemax', String(pending));
  await theirs.getByRole('link', { name: 'Start' }).click();
  await expect(replacer.page).toHaveURL(new RegExp(`/studies/${studyId}/review`));
  await ann2.page.reload();
  await expect(
    ann2.page
      .getByRole('listitem')
      .filter({ hasText: `${NAME} (v2)` })
      .getByRole('link', { name: 'Start' }),
  ).toHaveCount(0);
  await replacer.context.close();
  await ann2.context.close();
  await context.close();
});

test('a closed study is archived: gone from the list, back with the archived filter', async ({ browser }) => {
  const { context, page } = await asUser(browser, 'lead');
  await page.goto(`/studies/${studyId}`);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Close study' }).click();
  await expect(page.getByTestId('study-status')).toHaveText('closed');
  await page.getByRole('button', { name: 'Archive study' }).click();
  await expect(page.getByRole('status')).toContainText('Archived.');
  await page.goto(`/studies?q=${encodeURIComponent(NAME)}`);
  await expect(page.getByText('No study matches.')).toBeVisible();
  await page.getByRole('combobox', { name: /^Status/ }).selectOption('archived');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(row(page, `${NAME} (v2)`)).toContainText('archived');
  await context.close();
});
