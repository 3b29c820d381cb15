import { expect, test } from '@playwright/test';
import { asUser } from './support/session';

test('disabling an account or changing a role takes effect on the next request', async ({ browser }) => {
  const admin = await asUser(browser, 'admin');
  const ann3 = await asUser(browser, 'ann3');
  const ann4 = await asUser(browser, 'ann4');
  await Promise.all([ann3.page.goto('/'), ann4.page.goto('/')]);
  await expect(ann3.page.getByRole('link', { name: 'Studies' })).toHaveCount(0);

  await admin.page.goto('/admin/users');
  await admin.page.getByLabel('Role of ann3').selectOption('lead');
  await expect(admin.page.getByText('ann3 is now lead.')).toBeVisible();
  await ann3.page.reload();
  await expect(ann3.page.getByRole('link', { name: 'Studies' })).toBeVisible();

  admin.page.once('dialog', (d) => d.accept());
  await admin.page.getByTestId('account-ann4').getByRole('button', { name: 'Disable' }).click();
  await expect(admin.page.getByText('ann4 disabled.')).toBeVisible();
  await ann4.page.reload();
  await expect(ann4.page).toHaveURL(/\/sign-in/);
  expect((await ann4.page.request.get('/api/studies/2/queue')).status()).toBe(401);

  await Promise.all([admin.context.close(), ann3.context.close(), ann4.context.close()]);
});

test('repeated failed sign-ins lock the account for a while, even a disabled one', async ({ page }) => {
  for (let i = 0; i < 6; i++) {
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('ann4');
    await page.getByLabel('Password').fill(`wrong-${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#sign-in-error')).toBeVisible();
  }
  await expect(page.locator('#sign-in-error')).toContainText('Too many failed sign-ins');
});
