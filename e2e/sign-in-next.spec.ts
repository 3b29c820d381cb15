import { expect, test } from '@playwright/test';
import { concord } from './support/cli';

/*
 * Where sign-in sends a person: only to a path of this site, whatever `next` the link carried. A browser drops a
 * tab inside a URL, so `/\t/evil.example/x` (which starts with one slash) used to be followed as
 * `//evil.example/x`, another host. The other host is answered by the test itself, so nothing leaves the machine.
 */

// Of this worker's own: after a failure Playwright starts a new worker, which runs beforeAll again.
const USER = `nextlead${Date.now() % 100_000_000}`;
const PASSWORD = 'next-path-pass-2026';

test.beforeAll(() => {
  concord(['user', 'add', USER, '--role', 'lead', '--name', 'Next Lead'], `${PASSWORD}\n`);
});

async function signInWith(page: import('@playwright/test').Page, next: string) {
  await page.route(
    (url) => url.hostname.endsWith('evil.example'),
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>EVIL ORIGIN</p>' }),
  );
  await page.goto(`/sign-in?next=${next}`);
  await page.getByLabel('Username').fill(USER);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in', { timeout: 15_000 });
}

for (const next of ['/%09/evil.example/x', '/%0A/evil.example/x', '/.//evil.example/x', '/%5Cevil.example/x']) {
  test(`next=${next} ends on the app's own origin after sign-in`, async ({ page, baseURL }) => {
    await signInWith(page, next);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    await expect(page.getByText('EVIL ORIGIN')).toHaveCount(0);
  });
}

test('a path of this site is still followed after sign-in', async ({ page, baseURL }) => {
  await signInWith(page, encodeURIComponent('/studies?kind=rubric'));
  expect(page.url()).toBe(`${new URL(baseURL!).origin}/studies?kind=rubric`);
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
});
