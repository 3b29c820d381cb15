import { expect, test } from '@playwright/test';
import { asUser } from './support/session';

test('the signed-out are sent to sign in, and the API refuses them', async ({ page, request }) => {
  await page.goto('/studies/1');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fstudies%2F1/);
  expect((await request.get('/api/studies/1/queue')).status()).toBe(401);
});

test('an annotator cannot reach lead or admin pages, nor another reviewer’s assignment', async ({ browser }) => {
  const owner = await asUser(browser, 'ann1');
  const queue = await (await owner.page.request.get('/api/studies/2/queue')).json();
  const theirs: number = queue.currentId;
  expect(theirs).toBeGreaterThan(0);
  expect((await owner.page.request.get(`/api/assignments/${theirs}`)).status()).toBe(200);

  const { page, context } = await asUser(browser, 'ann2');
  for (const url of ['/studies', '/studies/1', '/studies/new', '/studies/1/items', '/admin/users']) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
  }
  expect((await page.request.get(`/api/assignments/${theirs}`)).status()).toBe(404);
  const body = { requestId: 'e2e-access-0001', activeMs: 0, decision: { decision: 'verify' } };
  expect((await page.request.post(`/api/assignments/${theirs}/submission`, { data: body })).status()).toBe(404);
  // The owner's JSON submission: a bad decision is refused with the field named; a good one is written once.
  const bad = await owner.page.request.post(`/api/assignments/${theirs}/submission`, {
    data: { ...body, decision: { decision: 'truncate' } },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).fieldErrors).toHaveProperty('afterStep');
  for (let i = 0; i < 2; i++) {
    const ok = await owner.page.request.post(`/api/assignments/${theirs}/submission`, { data: body });
    expect((await ok.json()).data).toMatchObject({ assignmentId: theirs, revision: 1, duplicate: i === 1 });
  }
  expect((await page.request.get('/api/studies/1/export?what=flows&format=jsonl')).status()).toBe(403);
  const upload = await page.request.post('/api/studies/1/import?format=concord', { data: '{}' });
  expect(upload.status()).toBe(403);

  // ann4 is in no study: its pages and queue say "not found".
  const outsider = await asUser(browser, 'ann4');
  expect((await outsider.page.goto('/studies/1/review'))?.status()).toBe(404);
  expect((await outsider.page.request.get('/api/studies/1/queue')).status()).toBe(404);
  await Promise.all([owner.context.close(), context.close(), outsider.context.close()]);
});
