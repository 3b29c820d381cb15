import { expect, test } from '@playwright/test';
import { concord } from './support/cli';

// Issue 26, point 8: a throttled sign-in says how long to wait. An account of its own, locked by its own failures
// (an account locks after 5; the address only after 50, so no other spec is touched).

test('after too many wrong passwords the sign-in page says how long to wait', async ({ page }) => {
  concord(['user', 'add', 'uxwait', '--role', 'annotator'], 'ux-wait-right-2026');
  await page.goto('/sign-in');
  const alert = page.locator('#sign-in-error');
  for (let i = 0; i < 6; i++) {
    await page.getByLabel('Username').fill('uxwait');
    await page.getByLabel('Password').fill(`wrong-${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Each attempt is answered before the next (a click while one is pending would not count): the form action
    // empties the password field when it has finished.
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(alert).toHaveText(i < 5 ? /Wrong username or password/ : /Too many failed sign-ins/);
  }
  await expect(alert).toHaveText(/Wait \d+ seconds?, then try again\./);
});
