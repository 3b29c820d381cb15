import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { concord } from './support/cli';
import { signInOverHttp, withReadonlyDb } from './support/server';
import { asUser } from './support/session';

/*
 * The HTTP API over real HTTP against the production build: tokens made on the CLI and on the account page, every
 * operation as each role, every refusal (no token, a cookie instead of a token, a wrong, revoked or disabled one, the
 * wrong role, bad input, the rate limit), and every answer checked against the OpenAPI document the server serves.
 */

const RUN = Date.now() % 100_000_000;
const LEAD = `apilead${RUN}`;
const ANN = `apiann${RUN}`;
const PASSWORD = 'api-spec-password-2026';
const FLOWS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** A token of its own for each test, so that one test's requests never count against another's rate limit. */
function newToken(username: string, name: string): { id: number; token: string } {
  return JSON.parse(concord(['token', 'create', '--user', username, '--name', name, '--json'])) as { id: number; token: string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Checks an answer against what the document says this operation sends with this status. */
async function documented(res: APIResponse, method: string, template: string): Promise<unknown> {
  const status = String(res.status());
  const declared = doc.paths[template]?.[method.toLowerCase()]?.responses[status] as
    { $ref?: string; content?: Record<string, { schema: unknown }> } | undefined;
  expect(declared, `${method} ${template} documents status ${status}`).toBeTruthy();
  const body = await res.json();
  if (declared!.$ref) {
    expect(res.headers()['content-type']).toContain('application/problem+json');
    const validate = ajv.compile(doc.components.schemas.Problem as object);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  } else {
    expect(res.headers()['content-type']).toContain('application/json');
    const validate = ajv.compile(declared!.content!['application/json'].schema as object);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  }
  return body;
}

let api: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  concord(['user', 'add', LEAD, '--role', 'lead', '--name', 'API Lead'], `${PASSWORD}\n`);
  concord(['user', 'add', ANN, '--role', 'annotator', '--name', 'API Annotator'], `${PASSWORD}\n`);
  api = await playwright.request.newContext({ baseURL });
  const res = await api.get('/api/openapi.json');
  expect(res.status()).toBe(200);
  doc = (await res.json()) as Doc;
});

test.afterAll(async () => {
  await api?.dispose();
});

test('without a valid token every route answers 401 with a problem document, and a session cookie is no token', async ({ baseURL }) => {
  const none = await api.get('/api/v1/me');
  expect(none.status()).toBe(401);
  expect(none.headers()['www-authenticate']).toContain('Bearer');
  expect(((await documented(none, 'GET', '/api/v1/me')) as { detail: string }).detail).toContain('Authorization: Bearer');
  for (const bad of ['cnc_nonsense', `cnc_${'A'.repeat(43)}`]) {
    const res = await api.get('/api/v1/studies', { headers: bearer(bad) });
    expect(res.status()).toBe(401);
    await documented(res, 'GET', '/api/v1/studies');
  }
  // Signed in with a browser session, a script still needs a token: the API reads no cookie.
  const session = await signInOverHttp(baseURL!, LEAD, PASSWORD);
  expect((await session.get('/api/v1/me')).status()).toBe(401);
  expect((await session.post('/api/v1/studies', { data: { kind: 'flow_review', name: 'by cookie' } })).status()).toBe(401);
  await session.dispose();
});

test('a lead creates, staffs and opens a study; every answer is as documented and the changes name the token', async () => {
  const { id: tokenId, token } = newToken(LEAD, 'lifecycle');
  const me = (await documented(await api.get('/api/v1/me', { headers: bearer(token) }), 'GET', '/api/v1/me')) as Record<string, unknown>;
  expect(me).toMatchObject({ username: LEAD, role: 'lead', token: { id: tokenId, name: 'lifecycle' } });

  const created = await api.post('/api/v1/studies', {
    headers: bearer(token),
    data: { kind: 'flow_review', name: `API study ${RUN}`, reviewersPerItem: 1 },
  });
  expect(created.status()).toBe(201);
  const { id } = (await documented(created, 'POST', '/api/v1/studies')) as { id: number };
  concord(['import', 'items', '--study', String(id), FLOWS]);

  const read = (await documented(
    await api.get(`/api/v1/studies/${id}`, { headers: bearer(token) }),
    'GET',
    '/api/v1/studies/{id}',
  )) as Record<string, unknown>;
  expect(read).toMatchObject({ id, kind: 'flow_review', status: 'draft', reviewersPerItem: 1, progress: { assigned: 0, submitted: 0 } });
  const items = (read.progress as { items: number }).items;
  expect(items).toBeGreaterThan(0);

  const staffed = await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(token), data: { reviewers: [ANN] } });
  expect((await documented(staffed, 'PUT', '/api/v1/studies/{id}/members')) as Record<string, unknown>).toMatchObject({
    members: [{ username: ANN, displayName: 'API Annotator' }],
  });
  const opened = (await documented(
    await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(token) }),
    'POST',
    '/api/v1/studies/{id}/open',
  )) as Record<string, unknown>;
  expect(opened).toMatchObject({ status: 'open', progress: { items, assigned: items, submitted: 0 } });

  const audited = withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) =>
    db.prepare('SELECT action, token_id AS tokenId FROM audit_log WHERE study_id = ? ORDER BY id').all(id),
  ) as { action: string; tokenId: number | null }[];
  const byToken = audited.filter((a) => a.tokenId === tokenId).map((a) => a.action);
  expect(byToken).toEqual(expect.arrayContaining(['study_created', 'study_opened']));
  // The import above came from the CLI, not the token.
  expect(audited.filter((a) => a.tokenId === null).length).toBeGreaterThan(0);

  // The annotator sees the study among their own, with their progress.
  const annToken = newToken(ANN, 'reviewer').token;
  const annMe = (await documented(await api.get('/api/v1/me', { headers: bearer(annToken) }), 'GET', '/api/v1/me')) as {
    studies: { id: number; assigned: number }[];
  };
  expect(annMe.studies.find((s) => s.id === id)).toMatchObject({ assigned: items });
});

test('lists studies a page at a time with a cursor, and refuses a cursor it did not give', async () => {
  const { token } = newToken(LEAD, 'pages');
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 30; i++) {
    const res = await api.get('/api/v1/studies', { headers: bearer(token), params: { limit: '2', ...(cursor ? { cursor } : {}) } });
    const body = (await documented(res, 'GET', '/api/v1/studies')) as { data: { id: number }[]; nextCursor: string | null };
    expect(body.data.length).toBeLessThanOrEqual(2);
    seen.push(...body.data.map((s) => s.id));
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  expect(cursor).toBeNull();
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(new Set(seen).size).toBe(seen.length);
  const all = (await (await api.get('/api/v1/studies', { headers: bearer(token), params: { limit: '200' } })).json()) as {
    data: unknown[];
  };
  expect(seen.length).toBe(all.data.length);

  const bad = await api.get('/api/v1/studies', { headers: bearer(token), params: { cursor: 'not-a-cursor' } });
  expect(bad.status()).toBe(400);
  const problem = (await documented(bad, 'GET', '/api/v1/studies')) as { errors: { path: string }[] };
  expect(problem.errors.map((e) => e.path)).toContain('cursor');
  const tooMany = await api.get('/api/v1/studies', { headers: bearer(token), params: { limit: '201' } });
  expect(((await documented(tooMany, 'GET', '/api/v1/studies')) as { errors: { path: string }[] }).errors[0].path).toBe('query.limit');
});

test('bad input says what and where, and changes nothing', async () => {
  const { token } = newToken(LEAD, 'bad input');
  const count = () =>
    withReadonlyDb(process.env.CONCORD_E2E_DB!, (db) => db.prepare('SELECT count(*) FROM studies').pluck().get() as number);
  const before = count();
  const wrongType = await api.post('/api/v1/studies', {
    headers: { ...bearer(token), 'content-type': 'text/plain' },
    data: '{"kind":"flow_review","name":"x"}',
  });
  expect(wrongType.status()).toBe(415);
  await documented(wrongType, 'POST', '/api/v1/studies');
  const notJson = await api.post('/api/v1/studies', {
    headers: { ...bearer(token), 'content-type': 'application/json' },
    data: '{"kind":',
  });
  expect(notJson.status()).toBe(400);
  const invalid = await api.post('/api/v1/studies', { headers: bearer(token), data: { kind: 'essay', name: '', reviewersPerItem: 0 } });
  expect(invalid.status()).toBe(400);
  const problem = (await documented(invalid, 'POST', '/api/v1/studies')) as { errors: { path: string; message: string }[] };
  expect(problem.errors.map((e) => e.path).sort()).toEqual(['body.kind', 'body.name', 'body.reviewersPerItem']);
  const missing = await api.get('/api/v1/studies/99999999', { headers: bearer(token) });
  expect(missing.status()).toBe(404);
  await documented(missing, 'GET', '/api/v1/studies/{id}');
  const notAnId = await api.get('/api/v1/studies/abc', { headers: bearer(token) });
  expect(notAnId.status()).toBe(400);
  expect(count()).toBe(before);
});

test("an annotator's token may not manage studies: 403 on every staff route", async () => {
  const { token } = newToken(ANN, 'wrong role');
  const calls: [string, Promise<APIResponse>, string][] = [
    ['GET', api.get('/api/v1/studies', { headers: bearer(token) }), '/api/v1/studies'],
    ['POST', api.post('/api/v1/studies', { headers: bearer(token), data: { kind: 'flow_review', name: 'not mine' } }), '/api/v1/studies'],
    ['GET', api.get('/api/v1/studies/1', { headers: bearer(token) }), '/api/v1/studies/{id}'],
    ['PUT', api.put('/api/v1/studies/1/members', { headers: bearer(token), data: { reviewers: [] } }), '/api/v1/studies/{id}/members'],
    ['POST', api.post('/api/v1/studies/1/open', { headers: bearer(token) }), '/api/v1/studies/{id}/open'],
  ];
  for (const [method, call, template] of calls) {
    const res = await call;
    expect(res.status(), `${method} ${template}`).toBe(403);
    await documented(res, method, template);
  }
});

test('a revoked token and a disabled account are refused on the next request; a re-enabled account works again', async ({ browser }) => {
  const user = `apidis${RUN}`;
  concord(['user', 'add', user, '--role', 'lead', '--name', 'API Disabled'], `${PASSWORD}\n`);
  const revoked = newToken(user, 'to revoke');
  expect((await api.get('/api/v1/me', { headers: bearer(revoked.token) })).status()).toBe(200);
  concord(['token', 'revoke', String(revoked.id)]);
  expect((await api.get('/api/v1/me', { headers: bearer(revoked.token) })).status()).toBe(401);

  const kept = newToken(user, 'kept');
  expect((await api.get('/api/v1/me', { headers: bearer(kept.token) })).status()).toBe(200);
  const admin = await asUser(browser, 'admin');
  await admin.page.goto('/admin/users');
  admin.page.once('dialog', (d) => d.accept());
  await admin.page.getByTestId(`account-${user}`).getByRole('button', { name: 'Disable' }).click();
  await expect(admin.page.getByText(`${user} disabled.`)).toBeVisible();
  expect((await api.get('/api/v1/me', { headers: bearer(kept.token) })).status()).toBe(401);
  await admin.page.getByTestId(`account-${user}`).getByRole('button', { name: 'Enable' }).click();
  await expect(admin.page.getByText(`${user} enabled.`)).toBeVisible();
  expect((await api.get('/api/v1/me', { headers: bearer(kept.token) })).status()).toBe(200);
  await admin.context.close();
});

test('a token past its rate limit is answered 429 with Retry-After, and other tokens are not held back', async () => {
  const { token } = newToken(LEAD, 'hasty');
  const other = newToken(LEAD, 'patient').token;
  const answers = await Promise.all(Array.from({ length: 80 }, () => api.get('/api/v1/me', { headers: bearer(token) })));
  const limited = answers.filter((r) => r.status() === 429);
  expect(limited.length).toBeGreaterThan(0);
  expect(answers.filter((r) => r.status() === 200).length).toBeGreaterThanOrEqual(40);
  expect(Number(limited[0].headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  await documented(limited[0], 'GET', '/api/v1/me');
  expect((await api.get('/api/v1/me', { headers: bearer(other) })).status()).toBe(200);
});

test('the account page makes a token shown once, lists it, and revokes it', async ({ browser }) => {
  const lead = await asUser(browser, LEAD, PASSWORD);
  await lead.page.goto('/account');
  await lead.page.getByLabel('Name').fill('from the browser');
  await lead.page.getByRole('button', { name: 'Make token' }).click();
  const shown = lead.page.getByLabel('The new token');
  await expect(shown).toHaveValue(/^cnc_/);
  const token = await shown.inputValue();
  expect((await api.get('/api/v1/me', { headers: bearer(token) })).status()).toBe(200);
  const row = lead.page.getByTestId('tokens').getByRole('row', { name: /from the browser/ });
  await expect(row).toContainText(`…${token.slice(-4)}`);
  await expect(row).toContainText('active');
  await lead.page.reload();
  await expect(lead.page.getByLabel('The new token')).toHaveCount(0);
  expect(await lead.page.content()).not.toContain(token);
  lead.page.once('dialog', (d) => d.accept());
  await lead.page.getByRole('button', { name: 'Revoke from the browser' }).click();
  await expect(lead.page.getByText('Revoked "from the browser".')).toBeVisible();
  expect((await api.get('/api/v1/me', { headers: bearer(token) })).status()).toBe(401);
  await lead.context.close();
});

test('the OpenAPI document and the API page are public and list every operation', async ({ page }) => {
  const ops = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
  expect(ops.length).toBeGreaterThanOrEqual(6);
  const routes = fs
    .readdirSync(path.join(process.cwd(), 'app', 'api', 'v1'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('route.ts'))
    .flatMap((f) => {
      const source = fs.readFileSync(path.join(process.cwd(), 'app', 'api', 'v1', f), 'utf8');
      const url = `/api/v1/${path.dirname(f)}`.replace(/\/\.$/, '').replace(/\[(\w+)\]/g, '{$1}');
      return [...source.matchAll(/export const (GET|POST|PUT|DELETE|PATCH)\b/g)].map((m) => `${m[1]} ${url}`);
    });
  expect(routes.sort()).toEqual(ops.sort());
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Concord HTTP API (v1)' })).toBeVisible();
  for (const op of ops) await expect(page.getByRole('link', { name: op, exact: true })).toBeVisible();
});
