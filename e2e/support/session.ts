import { expect, type Browser, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'concord-demo';

export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
}

/** A separate browser context (its own cookies) signed in as `username`. */
export async function asUser(browser: Browser, username: string, password = DEMO_PASSWORD) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, username, password);
  return { context, page };
}
