import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { makeReportsRubricStudy } from './support/rubric-study';
import { signInContext } from './support/session';

// Issue 26, point 4: the judge runs page of a rubric study, at 1280×720 where it was tried. It opens on a template
// of the study's kind, refuses a pairwise template before any request, says what is missing in words next to the
// field, previews on a random item, and shows a comparison where the lead is looking.

let study = 0;
test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  study = makeReportsRubricStudy();
  // Nothing listens here: no test below may send a request, and a run that started would show it.
  concord(['judge', 'endpoint', 'add', '--name', 'ux-judges-nowhere', '--url', 'http://127.0.0.1:3998/v1', '--models', 'ux-model']);
});

test('a rubric study opens on a rubric template, and a pairwise one is refused before any run starts', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInContext(page.context(), 'lead');
  await page.goto(`/studies/${study}/judges`);
  const template = page.getByLabel(/^Template \(JSON/);
  await expect(template).toHaveValue(/\{\{reply\}\}/);
  await expect(template).not.toHaveValue(/response_1/);
  const form = page.getByRole('form', { name: 'Start a judge run' });
  // One reply per item: there is no order to swap.
  await expect(form.getByText('Send both orders')).toHaveCount(0);

  // Empty fields: said in words next to the field, not as a parser's message.
  await form.getByLabel('Endpoint', { exact: true }).selectOption('ux-judges-nowhere');
  await form.getByRole('button', { name: 'Start run' }).click();
  await expect(form.getByTestId('field-error-name')).toHaveText(/Give the run a name/);
  await expect(page.getByRole('alert').filter({ hasText: 'Run name' })).toBeVisible();
  await expect(page.getByText(/Invalid input|expected string/)).toHaveCount(0);

  // The pairwise template, chosen by hand, is marked and refused, and no run is made.
  const start = page.getByLabel('Start from');
  const pairwise = await start.locator('option', { hasText: 'pairwise-criterion' }).getAttribute('value');
  await start.selectOption(pairwise!);
  await expect(page.getByTestId('template-misfit')).toContainText('{{response_1}}');
  await form.getByLabel('Run name').fill('ux-misfit');
  await form.getByRole('button', { name: 'Start run' }).click();
  await expect(form.getByTestId('field-error-template')).toContainText('mrbench-dimension');
  expect(() => concord(['judge', 'status', 'ux-misfit', '--study', String(study), '--json'])).toThrow();
  await expect(page.getByRole('listitem', { name: 'Judge run ux-misfit' })).toHaveCount(0);
});

test('the preview needs no item id, and a comparison opens in view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInContext(page.context(), 'lead');
  await page.goto(`/studies/${study}/judges`);
  await page.getByRole('button', { name: 'Preview on a random item' }).click();
  await expect(page.getByTestId('preview-user')).toContainText('Tutor reply');

  await page.getByLabel('Compare gpt').check();
  await page.getByRole('link', { name: 'Compare the selected runs' }).click();
  const table = page.getByRole('table', { name: 'Judge runs compared' });
  await expect(table).toBeInViewport();
});

test('the template editor takes no typing before the page is live, so nothing typed is mixed with the template it opens on', async ({
  browser,
}) => {
  // The server's HTML alone (no script runs): the editor shows the template, read-only.
  const still = await browser.newContext({ javaScriptEnabled: false });
  await signInContext(still, 'lead');
  const page = await still.newPage();
  await page.goto(`/studies/${study}/judges`);
  const template = page.getByLabel(/^Template \(JSON/);
  await expect(template).toHaveValue(/\{\{reply\}\}/);
  await expect(template).not.toBeEditable();
  await still.close();

  // Once React runs the page, the editor takes what is typed, and only that.
  const live = await browser.newContext();
  await signInContext(live, 'lead');
  const livePage = await live.newPage();
  await livePage.goto(`/studies/${study}/judges`);
  const editor = livePage.getByLabel(/^Template \(JSON/);
  await editor.fill('{"name": "typed"}');
  await expect(editor).toHaveValue('{"name": "typed"}');
  await live.close();
});
