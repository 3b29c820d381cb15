import { expect, test } from '@playwright/test';
import { concord } from './support/cli';
import { signInContext } from './support/session';

// Issue 26, point 8, on the admin's accounts page at 1440×900: "Back up now" writes a verified backup at once, and an
// account that cannot sign in (the command line's) offers no "Reset password".

test('the admin backs up now, and a pseudo-account has no Reset password', async ({ page }) => {
  concord(['user', 'add', 'uxadm-person', '--role', 'annotator'], 'ux-admin-2026');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'admin');
  await page.goto('/admin/users');

  const accounts = page.getByTestId('accounts');
  await expect(accounts.getByTestId('account-uxadm-person').getByRole('button', { name: 'Reset password' })).toBeVisible();
  // The command line's account exists once the CLI has run (above); it has no password.
  await page.reload();
  const cli = accounts.getByTestId('account-concord-cli');
  await expect(cli).toContainText('no sign-in');
  await expect(cli.getByRole('button', { name: 'Reset password' })).toHaveCount(0);

  const backups = page.getByTestId('backup-status');
  await backups.getByRole('button', { name: 'Back up now' }).click();
  await expect(backups.getByTestId('back-up-now-result')).toHaveText(/^Backed up: .+\.$/, { timeout: 60_000 });
  await expect(backups.getByTestId('newest-backup')).toBeVisible();
});
