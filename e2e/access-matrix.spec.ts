import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { concord } from './support/cli';
import { signInContext } from './support/session';

/*
 * Who may reach what: every page and API route, for six kinds of caller, on their own object, someone else's and
 * a missing one — generated from the table below and checked row by row with a message naming role × route ×
 * object. The study, people and judge run are this spec's own (demo accounts are changed by admin.spec.ts).
 *
 * Server actions are not called here: they are public endpoints too, but each one calls the same lib/server
 * use-case (and guard) as the route or page tested below, and the use-cases' guards have their own service tests.
 *
 * Blinding: every body the annotator and adjudicator rows receive is searched for the reply sources, the judge
 * run name, the item ids, and the other people's names, all distinctive strings seeded here.
 */

const PASSWORD = 'matrix-pass-2026';
const SOURCE_A = 'SRCZEBRA7731';
const SOURCE_B = 'SRCOKAPI4410';
const JUDGE_RUN = 'JUDGENARWHAL2093';
const ITEM_PREFIX = 'ITEMQUAHOG';
const PEOPLE = {
  member: { username: 'mxquokka', name: 'Quokka Matrix', role: 'annotator' },
  other: { username: 'mxwombat', name: 'Wombat Matrix', role: 'annotator' },
  outsider: { username: 'mxoutsider', name: 'Outsider Matrix', role: 'annotator' },
  adjudicator: { username: 'mxadjudicator', name: 'Adjudicator Matrix', role: 'annotator' },
  lead: { username: 'mxlead', name: 'Lead Matrix', role: 'lead' },
  admin: { username: 'mxadmin', name: 'Admin Matrix', role: 'admin' },
} as const;

const ROLES = ['signedOut', 'member', 'outsider', 'adjudicator', 'lead', 'admin'] as const;
type Role = (typeof ROLES)[number];
/** A status code, 'sign-in' for a redirect to the sign-in page, or 'studies' for one to the studies list. */
type Outcome = number | 'sign-in' | 'studies';
type Row = { route: string; object: string; method: 'GET' | 'POST'; url: string; body?: string | object; expect: Record<Role, Outcome> };

const ROLE_LABEL: Record<Role, string> = {
  signedOut: 'signed-out',
  member: 'annotator in the study',
  outsider: 'annotator outside the study',
  adjudicator: 'adjudicator',
  lead: 'lead',
  admin: 'admin',
};

/** Outcomes by role: a base for everyone, then the exceptions. */
const by = (base: Outcome, except: Partial<Record<Role, Outcome>> = {}): Record<Role, Outcome> =>
  Object.fromEntries(ROLES.map((r) => [r, except[r] ?? base])) as Record<Role, Outcome>;
const page = (staff: Outcome, except: Partial<Record<Role, Outcome>> = {}) =>
  by(404, { signedOut: 'sign-in', lead: staff, admin: staff, ...except });
const api = (staff: Outcome, except: Partial<Record<Role, Outcome>> = {}) =>
  by(403, { signedOut: 401, lead: staff, admin: staff, ...except });

type Ids = {
  flow: number;
  pair: number;
  a1f: number;
  a2f: number;
  a1p: number;
  a2p: number;
  a3p: number;
  disputed: number;
  flowItem: number;
};

function seed(): Ids {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-matrix-'));
  for (const p of Object.values(PEOPLE)) concord(['user', 'add', p.username, '--role', p.role, '--name', p.name], PASSWORD);
  const flows = [1, 2].map((i) => ({
    id: `matrix-flow-${i}`,
    problem: { text: `Matrix flow problem ${i}: what is ${i} + 5?` },
    steps: [
      { speaker: 'tutor', text: 'What do you get?' },
      { speaker: 'student', text: `${i + 5}` },
    ],
  }));
  const pairs = [1, 2, 3].map((i) => ({
    id: `${ITEM_PREFIX}-pair-${i}`,
    problem: `Matrix pair problem ${i}: what is ${i} × 7?`,
    history: [{ role: 'student', text: 'I do not know.' }],
    a: { source: SOURCE_A, text: `Matrix reply alpha ${i}` },
    b: { source: SOURCE_B, text: `Matrix reply beta ${i}` },
  }));
  const judge = pairs.map((p) => ({ item: p.id, judge: JUDGE_RUN, labels: { overall: 'win' }, rationale: `${JUDGE_RUN} prefers a` }));
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    return file;
  };
  const flow = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Matrix flows', '--json'])).id as number;
  concord(['import', 'items', '--study', String(flow), write('flows.jsonl', flows)]);
  concord(['study', 'members', String(flow), PEOPLE.member.username, PEOPLE.other.username]);
  concord(['study', 'open', String(flow)]);
  const pair = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Matrix pairs', '--criteria', 'none', '--json']))
    .id as number;
  concord(['import', 'items', '--study', String(pair), write('pairs.jsonl', pairs)]);
  concord(['import', 'judge', '--study', String(pair), '--judge', JUDGE_RUN, write('judge.jsonl', judge)]);
  concord(['study', 'members', String(pair), PEOPLE.member.username, PEOPLE.other.username, '--adjudicator', PEOPLE.adjudicator.username]);
  concord(['study', 'open', String(pair)]);
  fs.rmSync(dir, { recursive: true, force: true });
  return { flow, pair, a1f: 0, a2f: 0, a1p: 0, a2p: 0, a3p: 0, disputed: 0, flowItem: 0 };
}

const MISSING = 99_999_999;

function table(ids: Ids): Row[] {
  const { flow: F, pair: P } = ids;
  const rows: Row[] = [];
  const get = (route: string, object: string, url: string, outcome: Record<Role, Outcome>) =>
    rows.push({ route, object, method: 'GET', url, expect: outcome });
  const post = (route: string, object: string, url: string, body: string | object, outcome: Record<Role, Outcome>) =>
    rows.push({ route, object, method: 'POST', url, body, expect: outcome });

  /* ----- pages ----- */
  // Leads and admins with no review work of their own land on the studies list.
  get('/', 'home', '/', by(200, { signedOut: 'sign-in', lead: 'studies', admin: 'studies' }));
  get('/studies', 'list', '/studies', page(200));
  get('/studies/new', 'form', '/studies/new', page(200));
  for (const [object, id, staff] of [
    ['flow study', F, 200],
    ['pairwise study', P, 200],
    ['missing study', MISSING, 404],
  ] as const) {
    get('/studies/:id', object, `/studies/${id}`, page(staff));
    get('/studies/:id/items', object, `/studies/${id}/items`, page(staff));
    for (const d of ['agreement', 'alignment', 'leaderboard', 'hybrid', 'annotators'])
      get(`/studies/:id/analytics/${d}`, object, `/studies/${id}/analytics/${d}`, page(staff));
  }
  // The review screen: members (and staff, with an empty queue); the pairwise study's adjudicator too.
  get('/studies/:id/review', 'flow study', `/studies/${F}/review`, page(200, { member: 200 }));
  get('/studies/:id/review', 'pairwise study', `/studies/${P}/review`, page(200, { member: 200, adjudicator: 200 }));
  get('/studies/:id/review', 'missing study', `/studies/${MISSING}/review`, page(404));
  // Adjudication: only pairwise studies have it; a reviewer of the study gets the same 404 page as an outsider.
  get('/studies/:id/adjudicate', 'pairwise study', `/studies/${P}/adjudicate`, page(200, { adjudicator: 200 }));
  get('/studies/:id/adjudicate', 'flow study', `/studies/${F}/adjudicate`, page(404));
  get('/studies/:id/adjudicate', 'missing study', `/studies/${MISSING}/adjudicate`, page(404));
  get('/admin/users', 'accounts', '/admin/users', page(200, { lead: 404 }));
  get('/admin/judge-endpoints', 'judge endpoints', '/admin/judge-endpoints', page(200, { lead: 404 }));

  /* ----- API ----- */
  get('GET /api/health', 'server', '/api/health', by(200));
  for (const [object, id] of [
    ['flow study', F],
    ['pairwise study', P],
  ] as const) {
    get(
      'GET /api/studies/:id/queue',
      object,
      `/api/studies/${id}/queue`,
      by(404, { signedOut: 401, member: 200, lead: 200, admin: 200, adjudicator: id === P ? 200 : 404 }),
    );
  }
  get('GET /api/studies/:id/queue', 'missing study', `/api/studies/${MISSING}/queue`, by(404, { signedOut: 401 }));

  const ownOnly = (mine: boolean) => by(404, { signedOut: 401, member: mine ? 200 : 404 });
  for (const [object, id, mine] of [
    ['flow assignment of the member (own)', ids.a1f, true],
    ["flow assignment of the other reviewer (someone else's)", ids.a2f, false],
    ['pairwise assignment of the member (own)', ids.a1p, true],
    ["pairwise assignment of the other reviewer (someone else's)", ids.a2p, false],
    ['pending pairwise assignment of the member (own, on screen now)', ids.a3p, true],
    ['missing assignment', MISSING, false],
  ] as const) {
    get('GET /api/assignments/:id', object, `/api/assignments/${id}`, ownOnly(mine));
  }
  // A bad decision: the owner gets 400 (the guard passed, nothing written); everyone else 404 with a valid body.
  const flowBody = (decision: object) => ({ requestId: `matrix-${Math.random().toString(36).slice(2)}`, activeMs: 0, decision });
  post(
    'POST /api/assignments/:id/submission',
    'flow assignment of the member (own), invalid decision',
    `/api/assignments/${ids.a1f}/submission`,
    flowBody({ decision: 'truncate' }),
    by(404, { signedOut: 401, member: 400 }),
  );
  post(
    'POST /api/assignments/:id/submission',
    "flow assignment of the other reviewer (someone else's)",
    `/api/assignments/${ids.a2f}/submission`,
    flowBody({ decision: 'verify' }),
    by(404, { signedOut: 401 }),
  );
  post(
    'POST /api/assignments/:id/submission',
    'missing assignment',
    `/api/assignments/${MISSING}/submission`,
    flowBody({ decision: 'verify' }),
    by(404, { signedOut: 401 }),
  );

  const adjudication = (ok: Outcome) => by(404, { signedOut: 401, member: 403, adjudicator: ok, lead: ok, admin: ok });
  get('GET /api/studies/:id/adjudication', 'pairwise study', `/api/studies/${P}/adjudication`, adjudication(200));
  get('GET /api/studies/:id/adjudication', 'flow study', `/api/studies/${F}/adjudication`, by(404, { signedOut: 401 }));
  get('GET /api/studies/:id/adjudication', 'missing study', `/api/studies/${MISSING}/adjudication`, by(404, { signedOut: 401 }));
  get('GET /api/studies/:id/adjudication/:itemId', 'disputed item', `/api/studies/${P}/adjudication/${ids.disputed}`, adjudication(200));
  get('GET /api/studies/:id/adjudication/:itemId', 'missing item', `/api/studies/${P}/adjudication/${MISSING}`, adjudication(404));
  get(
    'GET /api/studies/:id/adjudication/:itemId',
    "another study's item",
    `/api/studies/${P}/adjudication/${ids.flowItem}`,
    adjudication(404),
  );
  get(
    'GET /api/studies/:id/adjudication/:itemId',
    'missing study',
    `/api/studies/${MISSING}/adjudication/${ids.disputed}`,
    by(404, { signedOut: 401 }),
  );

  get('GET /api/studies/:id/export', 'flow study: verified flows, JSONL', `/api/studies/${F}/export?what=flows&format=jsonl`, api(200));
  get('GET /api/studies/:id/export', 'flow study: decisions, CSV', `/api/studies/${F}/export?what=decisions&format=csv`, api(200));
  get(
    'GET /api/studies/:id/export',
    'pairwise study: ground truth, CSV',
    `/api/studies/${P}/export?what=ground-truth&format=csv`,
    api(200),
  );
  get(
    'GET /api/studies/:id/export',
    'pairwise study: ground truth, JSONL',
    `/api/studies/${P}/export?what=ground-truth&format=jsonl`,
    api(200),
  );
  get('GET /api/studies/:id/export', 'missing study', `/api/studies/${MISSING}/export?what=flows&format=jsonl`, api(404));

  // Bodies that the importers refuse: staff get 400 (the guard passed, nothing written), others 403.
  post('POST /api/studies/:id/import', 'flow study, bad file', `/api/studies/${F}/import?format=concord`, '{"id": 1}\n', api(400));
  post('POST /api/studies/:id/import', 'pairwise study, bad file', `/api/studies/${P}/import?format=concord`, '{"id": 1}\n', api(400));
  post('POST /api/studies/:id/import', 'missing study', `/api/studies/${MISSING}/import?format=concord`, '{"id": 1}\n', api(404));
  post('POST /api/studies/:id/judge', 'pairwise study, bad file', `/api/studies/${P}/judge?format=concord`, '{"item": 1}\n', api(400));
  post('POST /api/studies/:id/judge', 'missing study', `/api/studies/${MISSING}/judge?format=concord`, '{"item": 1}\n', api(404));

  const judge = encodeURIComponent(JUDGE_RUN);
  get('GET /api/studies/:id/reports/agreement', 'pairwise study', `/api/studies/${P}/reports/agreement`, api(200));
  get('GET /api/studies/:id/reports/alignment', 'pairwise study', `/api/studies/${P}/reports/alignment?judge=${judge}`, api(200));
  get('GET /api/studies/:id/reports/leaderboard', 'pairwise study', `/api/studies/${P}/reports/leaderboard`, api(200));
  get(
    'GET /api/studies/:id/reports/hybrid',
    'pairwise study',
    `/api/studies/${P}/reports/hybrid?judge=${judge}&criterion=overall`,
    api(200),
  );
  for (const r of ['agreement', 'alignment', 'leaderboard', 'hybrid']) {
    get(`GET /api/studies/:id/reports/${r}`, 'missing study', `/api/studies/${MISSING}/reports/${r}?judge=${judge}`, api(404));
  }
  // An unknown report name is refused before anyone's rights are looked at: it names nothing that exists.
  get('GET /api/studies/:id/reports/:report', 'unknown report', `/api/studies/${P}/reports/secrets`, by(404, { signedOut: 401 }));
  return rows;
}

/** Distinctive strings a row's caller must never receive, by role. */
function secretsFor(role: Role): string[] {
  const blind = [SOURCE_A, SOURCE_B, JUDGE_RUN, ITEM_PREFIX];
  if (role === 'member') return [...blind, PEOPLE.other.username, PEOPLE.other.name, PEOPLE.adjudicator.username, PEOPLE.adjudicator.name];
  if (role === 'adjudicator') return [...blind, PEOPLE.member.username, PEOPLE.member.name, PEOPLE.other.username, PEOPLE.other.name];
  if (role === 'outsider') return [...blind, PEOPLE.member.username, PEOPLE.other.username];
  return [];
}

test.describe.configure({ mode: 'serial' });

let ids: Ids;
const contexts = new Map<Role, BrowserContext>();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  ids = seed();
  contexts.set('signedOut', await browser.newContext());
  for (const role of ROLES) {
    if (role === 'signedOut') continue;
    const context = await browser.newContext();
    await signInContext(context, PEOPLE[role].username, PASSWORD);
    contexts.set(role, context);
  }
  const other = await asOther(browser);
  const member = contexts.get('member')!.request;
  const queue = async (r: APIRequestContext, study: number) =>
    (await (await r.get(`/api/studies/${study}/queue`)).json()) as { currentId: number; nextId: number | null };
  ids.a1f = (await queue(member, ids.flow)).currentId;
  ids.a2f = (await queue(other.request, ids.flow)).currentId;
  // Both reviewers judge two of the three pairs, disagreeing on each (a tie against a preference): two disputed
  // items, and a third still pending, whose JSON (what the judging screen loads) is searched for secrets too.
  for (const [r, choice] of [
    [member, 'tie'],
    [other.request, 'r1'],
  ] as const) {
    const q = await queue(r, ids.pair);
    for (const [i, a] of [q.currentId, q.nextId!].entries()) {
      const res = await r.post(`/api/assignments/${a}/submission`, {
        data: { requestId: `matrix-judge-${choice}-${i}`, activeMs: 1000, choices: { overall: choice } },
      });
      expect(res.status(), `seeding a judgment: ${await res.text()}`).toBe(200);
    }
    if (r === member) [ids.a1p] = [q.currentId];
    else [ids.a2p] = [q.currentId];
  }
  const adjQueue = await (await contexts.get('adjudicator')!.request.get(`/api/studies/${ids.pair}/adjudication`)).json();
  ids.disputed = adjQueue.currentItemId;
  expect(ids.disputed).toBeGreaterThan(0);
  // Another study's item: the flow items were imported just before the pairs, by this spec alone, so the id
  // right below the pairs' lowest is the flow study's last item.
  const pairItems = (adjQueue.items as { itemId: number }[]).map((i) => i.itemId);
  expect(pairItems).toHaveLength(2);
  const pending = await (await member.get(`/api/studies/${ids.pair}/queue`)).json();
  const third = await (await member.get(`/api/assignments/${pending.currentId}`)).json();
  ids.flowItem = Math.min(...pairItems, third.itemId) - 1;
  ids.a3p = pending.currentId;
  await other.close();
});

async function asOther(browser: import('@playwright/test').Browser) {
  const context = await browser.newContext();
  await signInContext(context, PEOPLE.other.username, PASSWORD);
  return { request: context.request, close: () => context.close() };
}

test.afterAll(async () => {
  for (const c of contexts.values()) await c.close();
});

test('the access matrix: every role × route × object gets the status the rules give it, and nothing unblinded', async () => {
  test.setTimeout(240_000);
  const rows = table(ids);
  const failures: string[] = [];
  let checked = 0;
  for (const role of ROLES) {
    const request = contexts.get(role)!.request;
    const secrets = secretsFor(role);
    await test.step(ROLE_LABEL[role], async () => {
      for (const row of rows) {
        const label = `${ROLE_LABEL[role]} × ${row.method} ${row.url} (${row.route}, ${row.object})`;
        const res =
          row.method === 'GET'
            ? await request.get(row.url, { maxRedirects: 0 })
            : await request.post(row.url, {
                maxRedirects: 0,
                ...(typeof row.body === 'string'
                  ? { data: row.body, headers: { 'content-type': 'application/x-ndjson' } }
                  : { data: row.body }),
              });
        const wanted = row.expect[role];
        const status = res.status();
        checked++;
        if (wanted === 'sign-in' || wanted === 'studies') {
          const location = res.headers()['location'] ?? '';
          const target = wanted === 'sign-in' ? /\/sign-in(\?|$)/ : /\/studies$/;
          if (status < 300 || status >= 400 || !target.test(location))
            failures.push(`${label}: expected a redirect to /${wanted}, got ${status} ${location}`);
        } else if (status !== wanted) {
          failures.push(`${label}: expected ${wanted}, got ${status} ${(await res.text()).slice(0, 160).replace(/\s+/g, ' ')}`);
        }
        if (secrets.length) {
          const body = await res.text();
          for (const s of secrets) if (body.includes(s)) failures.push(`${label}: the response contains "${s}"`);
        }
      }
    });
  }
  expect(checked).toBeGreaterThanOrEqual(150);
  expect(failures, `${failures.length} of ${checked} cases failed:\n${failures.join('\n')}`).toEqual([]);
});

test('the blinded views still show what the reviewer needs (so the blinding check above can fail)', async () => {
  const member = contexts.get('member')!.request;
  const view = await (await member.get(`/api/assignments/${ids.a1p}`)).text();
  expect(view).toMatch(/Matrix reply alpha \d/);
  expect(view).toMatch(/Matrix reply beta \d/);
  const adj = await (await contexts.get('adjudicator')!.request.get(`/api/studies/${ids.pair}/adjudication/${ids.disputed}`)).text();
  expect(adj).toMatch(/Matrix reply alpha \d/);
  // The lead sees the sources and the run, in the ground truth and the alignment report.
  const lead = contexts.get('lead')!.request;
  const alignment = await (await lead.get(`/api/studies/${ids.pair}/reports/alignment?judge=${encodeURIComponent(JUDGE_RUN)}`)).text();
  expect(alignment).toContain(JUDGE_RUN);
});
