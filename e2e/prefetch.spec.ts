import { expect, test, type Page } from '@playwright/test';
import { signInContext } from './support/session';

// Links prefetch the page they lead to when someone reaches for them (components/ui/link.tsx), not every page linked
// from the screen: a page view asks the server for that page alone.

function prefetchesOf(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) seen.push(new URL(r.url()));
  });
  return seen;
}

test('a page view prefetches no other page; a hovered or focused link prefetches its own', async ({ page }) => {
  await signInContext(page.context(), 'lead');
  const prefetched = prefetchesOf(page);
  // The studies list, a study and its items: pages with many links (every study, every item).
  for (const url of ['/studies', '/studies/1', '/studies/1/items']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  expect(prefetched.map((u) => u.pathname)).toEqual([]);

  await page.getByRole('link', { name: 'My work' }).hover();
  await expect.poll(() => prefetched.map((u) => u.pathname)).toContain('/');
  await page.getByRole('link', { name: 'Studies', exact: true }).focus();
  await expect.poll(() => prefetched.map((u) => u.pathname)).toContain('/studies');
  // and following it works as before
  await page.getByRole('link', { name: 'Studies', exact: true }).click();
  await expect(page).toHaveURL(/\/studies$/);
  await expect(page.getByRole('heading', { name: 'Studies', level: 1 })).toBeVisible();
});
