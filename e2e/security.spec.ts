import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { OwnServer, cliOn, signInOverHttp, withReadonlyDb } from './support/server';
import { asUser, signIn } from './support/session';

// Cross-origin requests and sign-out run on a server and database of this spec's own (port 3232): signing out
// revokes every session of the account. Headers, framing and the CSP are checked on the shared demo server.
const PORT = 3232;
const FRAMER_PORT = 3233;
const PASSWORD = 'security-test-password';
const FLOWS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

let dir = '';
let dbFile = '';
let server: OwnServer;
let study = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-security-'));
  dbFile = path.join(dir, 'concord.db');
  cliOn(dbFile, ['user', 'add', 'sec-lead', '--role', 'lead'], `${PASSWORD}\n`);
  for (const u of ['sec-ann', 'sec-out']) cliOn(dbFile, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  study = (
    JSON.parse(cliOn(dbFile, ['study', 'create', '--kind', 'flow_review', '--name', 'Security', '--reviewers', '2', '--json'])) as {
      id: number;
    }
  ).id;
  cliOn(dbFile, ['import', 'items', '--study', String(study), FLOWS]);
  cliOn(dbFile, ['study', 'members', String(study), 'sec-ann', 'sec-out']);
  cliOn(dbFile, ['study', 'open', String(study)]);
  server = new OwnServer(dbFile, PORT);
  await server.start();
});

test.afterAll(async () => {
  await server?.kill9();
  fs.rmSync(dir, { recursive: true, force: true });
});

const annotationsOf = (assignmentId: number) =>
  withReadonlyDb(
    dbFile,
    (db) => (db.prepare('SELECT count(*) AS n FROM annotations WHERE assignment_id = ?').get(assignmentId) as { n: number }).n,
  );

const currentAssignment = async (ctx: APIRequestContext) =>
  ((await (await ctx.get(`/api/studies/${study}/queue`)).json()) as { currentId: number }).currentId;

test('state-changing API calls from another site are refused, and JSON routes take JSON only', async () => {
  const ann = await signInOverHttp(server.baseURL, 'sec-ann', PASSWORD);
  const id = await currentAssignment(ann);
  const url = `/api/assignments/${id}/submission`;
  const body = (requestId: string) => JSON.stringify({ requestId, activeMs: 0, decision: { decision: 'verify' } });

  // What a hostile page can send without a preflight: a text/plain POST carrying the victim's cookie.
  const evil = await ann.post(url, {
    data: body('sec-cross-origin-1'),
    headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
  });
  expect(evil.status()).toBe(403);
  expect((await evil.json()).error).toMatch(/another site/);
  for (const site of ['cross-site', 'same-site']) {
    const res = await ann.post(url, {
      data: body(`sec-fetch-${site}`),
      headers: { 'content-type': 'application/json', 'sec-fetch-site': site },
    });
    expect(res.status(), site).toBe(403);
  }
  // Without an Origin (a script, not a browser), the route still wants JSON.
  const plain = await ann.post(url, { data: body('sec-plain-1'), headers: { 'content-type': 'text/plain' } });
  expect(plain.status()).toBe(415);
  expect((await plain.json()).error).toMatch(/application\/json/);
  expect(annotationsOf(id)).toBe(0);

  const own = await ann.post(url, {
    data: body('sec-own-1'),
    headers: { 'content-type': 'application/json', origin: server.baseURL, 'sec-fetch-site': 'same-origin' },
  });
  expect(own.status(), await own.text()).toBe(200);
  const script = await ann.post(url.replace(String(id), String(await currentAssignment(ann))), { data: JSON.parse(body('sec-script-1')) });
  expect(script.status(), await script.text()).toBe(200);
  expect(annotationsOf(id)).toBe(1);
  await ann.dispose();
});

test("a draft is saved from the review screen's own origin only, as JSON", async () => {
  const ann = await signInOverHttp(server.baseURL, 'sec-ann', PASSWORD);
  const id = await currentAssignment(ann);
  const url = `/api/assignments/${id}/draft`;
  const data = JSON.stringify({ draft: { decision: 'discard', note: 'from the page' }, activeMs: 0 });
  const draftOf = () =>
    withReadonlyDb(dbFile, (db) => db.prepare('SELECT payload FROM drafts WHERE assignment_id = ?').pluck().get(id) as string | undefined);
  const before = draftOf();

  const evil = await ann.post(url, { data, headers: { 'content-type': 'text/plain', origin: 'http://evil.example' } });
  expect(evil.status()).toBe(403);
  const crossSite = await ann.post(url, { data, headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' } });
  expect(crossSite.status()).toBe(403);
  expect(draftOf()).toBe(before);

  const own = await ann.post(url, {
    data,
    headers: { 'content-type': 'application/json', origin: server.baseURL, 'sec-fetch-site': 'same-origin' },
  });
  expect(own.status(), await own.text()).toBe(200);
  expect(await own.json()).toEqual({ ok: true, data: { saved: true } });
  expect(JSON.parse(draftOf()!)).toEqual({ decision: 'discard', note: 'from the page' });
  await ann.dispose();
});

test('uploads keep working from the import form and from scripts, not from another site', async () => {
  const lead = await signInOverHttp(server.baseURL, 'sec-lead', PASSWORD);
  const draft = (
    JSON.parse(cliOn(dbFile, ['study', 'create', '--kind', 'flow_review', '--name', 'Uploads', '--reviewers', '1', '--json'])) as {
      id: number;
    }
  ).id;
  const file = fs.readFileSync(FLOWS);
  const upload = (headers: Record<string, string>) =>
    lead.post(`/api/studies/${draft}/import?format=concord&filename=flows.jsonl`, {
      data: file,
      headers: { 'content-type': 'application/x-ndjson', ...headers },
    });
  const evil = await upload({ origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
  expect(evil.status()).toBe(403);
  // What the study page's import form sends (a same-origin fetch of the file), then a script's upload.
  const form = await upload({ origin: server.baseURL, 'sec-fetch-site': 'same-origin' });
  expect(form.status(), await form.text()).toBe(200);
  const script = await upload({});
  expect(script.status(), await script.text()).toBe(200);
  expect((await script.json()).data).toMatchObject({ inserted: expect.any(Number) });
  await lead.dispose();
});

test('server actions from another origin are refused by Next itself', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await signIn(page, 'sec-ann', PASSWORD);
  const html = await (await context.request.get('/')).text();
  const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(html)?.[1];
  expect(actionField, 'the sign-out form carries its action id').toMatch(/^\$ACTION_ID_[0-9a-f]+$/);
  const signOut = (origin: string) =>
    context.request.post('/', { multipart: { [actionField!]: '' }, headers: { origin }, maxRedirects: 0 });
  const evil = await signOut('http://evil.example');
  expect(evil.status()).toBeGreaterThanOrEqual(400);
  expect((await context.request.get(`/api/studies/${study}/queue`)).status()).toBe(200); // still signed in
  await context.close();
});

test('signing out ends the session at once: the old cookie is refused', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  await signIn(page, 'sec-out', PASSWORD);
  const stolen = await context.storageState();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await request.newContext({ baseURL: server.baseURL, storageState: stolen });
  expect((await replay.get(`/api/studies/${study}/queue`)).status()).toBe(401);
  const home = await replay.get('/', { maxRedirects: 0 });
  expect(home.status()).toBe(307);
  expect(home.headers().location).toMatch(/\/sign-in/);
  await replay.dispose();
  // Signing in again works, with a new session.
  await signIn(page, 'sec-out', PASSWORD);
  expect((await context.request.get(`/api/studies/${study}/queue`)).status()).toBe(200);
  await context.close();
});

// --- on the shared demo server ---

const HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  for (const [name, value] of Object.entries(HEADERS)) expect(headers[name], `${name} on ${what}`).toBe(value);
  const csp = headers['content-security-policy'] ?? '';
  for (const directive of ["default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) {
    expect(csp, `CSP on ${what}`).toContain(directive);
  }
}

test('pages and API answers carry the security headers', async ({ browser, request: anonymous }) => {
  for (const url of ['/sign-in', '/api/health', '/api/studies/1/queue']) {
    const res = await anonymous.get(url, { maxRedirects: 0 });
    expectSecurityHeaders(res.headers(), `${url} (signed out, ${res.status()})`);
  }
  const { context, page } = await asUser(browser, 'ann3');
  for (const url of ['/', '/studies/4/review', '/api/studies/4/queue']) {
    const res = await page.request.get(url);
    expect(res.status(), url).toBe(200);
    expectSecurityHeaders(res.headers(), url);
  }
  await context.close();
});

test("the review screens' per-item requests are answered before Next, with the same headers and a size limit", async ({ browser }) => {
  // Only the direct routes (decision 0051) limit a draft's size: Next's route would read it all and let the
  // use-case refuse the note. A 413 with its message shows the production server answers them before Next.
  const { context, page } = await asUser(browser, 'ann3');
  const url = '/api/assignments/1/draft';
  const huge = await page.request.post(url, { data: { draft: { note: 'x'.repeat(2 << 20) }, activeMs: 1 } });
  expect(huge.status()).toBe(413);
  expect((await huge.json()).error).toBe(`POST ${url} takes at most 1024 KiB of JSON.`);
  expectSecurityHeaders(huge.headers(), `${url} (413)`);
  expect(huge.headers()['cache-control']).toBe('no-store, no-transform');
  const mine = await page.request.get('/api/assignments/999999999');
  expect(mine.status()).toBe(404);
  expectSecurityHeaders(mine.headers(), '/api/assignments/999999999 (404)');
  await context.close();
});

test('another site cannot frame the judging screen', async ({ browser, baseURL }) => {
  // A page on another origin that frames the judging screen; the browser sends the session cookie along (same
  // host, other port), so only the app's headers keep it from rendering.
  const framer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>framer</title><iframe id="victim" src="${baseURL}/studies/4/review" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(FRAMER_PORT, '127.0.0.1', resolve));
  const { context, page } = await asUser(browser, 'ann3');
  try {
    await page.goto('/');
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    const framing = await context.newPage();
    const frameAnswer = framing.waitForResponse((r) => r.url().endsWith('/studies/4/review'));
    await framing.goto(`http://127.0.0.1:${FRAMER_PORT}/`);
    // The server answered, signed in, and said not to frame it; the browser showed nothing of it.
    const answer = await frameAnswer;
    expect(answer.status()).toBe(200);
    expect(await answer.headerValue('content-security-policy')).toContain("frame-ancestors 'none'");
    // The browser has finished with the frame (blocked, so an error page of its own) before it is looked into.
    const frame = (await framing
      .locator('#victim')
      .elementHandle()
      .then((h) => h!.contentFrame()))!;
    expect(frame.parentFrame()).toBe(framing.mainFrame());
    await frame.waitForLoadState('load');
    expect(await frame!.locator('[data-testid="signed-in-as"]').count()).toBe(0);
    expect(await frame!.locator('nav[aria-label="Main"]').count()).toBe(0);
  } finally {
    await context.close();
    await new Promise((resolve) => framer.close(resolve));
  }
});

/** Records console errors, page errors and CSP violations on `page` (and reports them with the URL they came on). */
async function watchForViolations(page: Page) {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  return problems;
}

test('the app works under its CSP: no violation on sign-in, review, judging, dashboards and accounts', async ({ browser }) => {
  test.setTimeout(120_000);
  const visits: [string, string[], (page: Page) => Promise<void>][] = [
    [
      'ann1',
      ['/', '/studies/1/review', '/studies/3/review'],
      async (page) => {
        await expect(page.getByTestId('signed-in-as')).toBeVisible();
      },
    ],
    [
      'ann3',
      ['/studies/4/review'],
      async (page) => {
        // The judging screen (or its end, when another spec judged everything already).
        await expect(page.getByTestId('criterion-overall').or(page.getByTestId('all-done'))).toBeVisible();
      },
    ],
    [
      'lead',
      [
        '/studies/3',
        '/studies/new',
        '/studies/5/analytics/agreement',
        '/studies/5/analytics/alignment',
        '/studies/5/analytics/leaderboard',
      ],
      async (page) => {
        await expect(page.getByTestId('signed-in-as')).toBeVisible();
      },
    ],
    [
      'admin',
      ['/admin/users'],
      async (page) => {
        await expect(page.getByTestId('signed-in-as')).toBeVisible();
      },
    ],
  ];
  for (const [user, urls, ready] of visits) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = await watchForViolations(page);
    await signIn(page, user);
    for (const url of urls) {
      await page.goto(url);
      await ready(page);
      await page.waitForLoadState('networkidle');
    }
    // KaTeX's stylesheet and fonts are among what loaded: the judging and review screens render math.
    expect(problems, `console errors for ${user}`).toEqual([]);
    await context.close();
  }
});
