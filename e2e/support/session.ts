import { expect, test, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { signInOverHttp } from './server';

export const DEMO_PASSWORD = 'concord-demo';

/**
 * Signs in through the sign-in page. For the specs about that page (what it says, where it sends, what it refuses);
 * a spec that only needs to be signed in uses `asUser` or `signInContext`, which skip the page.
 */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
}

/** The shared server's address: the baseURL playwright.config.ts gives the running test's project. */
function configuredBaseURL(): string {
  const { baseURL } = test.info().project.use;
  if (!baseURL) throw new Error('playwright.config.ts sets no baseURL');
  return baseURL;
}

/**
 * Gives `context` the session of `username` on the shared server, signed in over HTTP: the cookies the sign-in page
 * would have left, in a fraction of its time.
 */
export async function signInContext(context: BrowserContext, username: string, password = DEMO_PASSWORD) {
  const session = await signInOverHttp(configuredBaseURL(), username, password);
  try {
    await context.addCookies((await session.storageState()).cookies);
  } finally {
    await session.dispose();
  }
}

/**
 * A separate browser context (its own cookies, `options` such as a viewport) signed in as `username`, with one page
 * open on nothing yet: the test goes where it needs, the home page included.
 */
export async function asUser(browser: Browser, username: string, password = DEMO_PASSWORD, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  await signInContext(context, username, password);
  const page = await context.newPage();
  return { context, page };
}
