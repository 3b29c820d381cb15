import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentDirectRoutes } from '@/app/api/assignments/direct';
import { getDb } from '@/db/client';
import { authSecret } from '@/lib/env';
import { securityHeaders } from '@/lib/security-headers';
import type { Actor } from '@/lib/server/actor';
import { endSessions, setUserActive } from '@/lib/server/accounts/users';
import { importItems } from '@/lib/server/imports/imports';
import { getQueue } from '@/lib/server/review/flow-review';
import { createStudy, openStudy, setStudyMembers } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { DIRECT_BODY_LIMIT, directHandler } from './direct-routes';

// The direct routes on a real HTTP server on loopback, over a database of this file's own; what they leave alone
// gets a 599 "for Next" here, so that a request they should not answer shows.
const { dir } = useTestDatabase();
const SALT = 'authjs.session-token';
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

let server: http.Server;
let base: string;
let ann: Actor, other: Actor, gone: Actor;
let first: number;

const sessionVersion = (id: number) => getDb().$client.prepare('SELECT session_version FROM users WHERE id = ?').pluck().get(id) as number;
const cookieOf = async (who: Actor) =>
  `theme=dark; ${SALT}=${await encode({ token: { uid: who.id, sv: sessionVersion(who.id) }, secret: authSecret(), salt: SALT, maxAge: 3600 })}`;
const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;

type Sent = { status: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> | null };

function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : null });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
const post = (url: string, cookie: string, json: unknown, more: Record<string, string> = {}) =>
  send('POST', url, { cookie, 'content-type': 'application/json', ...more }, typeof json === 'string' ? json : JSON.stringify(json));

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  ann = await makeUser('ann');
  other = await makeUser('other');
  gone = await makeUser('gone');
  const study = createStudy(lead, { kind: 'flow_review', name: 'Direct', payRate: '0.5', reviewersPerItem: 1, seed: 3 }).id;
  const lines = fs.readFileSync(KMP, 'utf8').trim().split('\n').slice(0, 4);
  importItems(lead, study, writeTemp(dir, 'flows.jsonl', lines.join('\n')), 'concord');
  setStudyMembers(lead, study, { usernames: ['ann', 'gone'] });
  openStudy(lead, study);
  first = getQueue(ann, study).currentId!;
  const handle = directHandler(assignmentDirectRoutes);
  server = http.createServer((req, res) => {
    if (handle(req, res)) return;
    res.writeHead(599);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('the direct routes', () => {
  it("answer a reviewer's item with the JSON and the headers Next's routes send", async () => {
    const res = await send('GET', `/api/assignments/${first}?t=1`, { cookie: await cookieOf(ann) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'flow_review', assignmentId: first });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store, no-transform');
    for (const { key, value } of securityHeaders) expect(res.headers[key.toLowerCase()], key).toBe(value);
  });

  it('refuse the signed out, a forged token, another reviewer and a disabled or signed-out account', async () => {
    expect(await send('GET', `/api/assignments/${first}`, {})).toMatchObject({
      status: 401,
      body: { ok: false, error: 'Please sign in.' },
    });
    const forged = `${SALT}=not-a-token`;
    expect(await send('GET', `/api/assignments/${first}`, { cookie: forged })).toMatchObject({
      status: 401,
      body: { error: 'Please sign in again.' },
    });
    expect(await send('GET', `/api/assignments/${first}`, { cookie: await cookieOf(other) })).toMatchObject({
      status: 404,
      body: { error: 'That assignment was not found.' },
    });
    expect((await send('GET', `/api/assignments/x${first}`, { cookie: await cookieOf(ann) })).status).toBe(404);

    const goneCookie = await cookieOf(gone);
    const goneItem = getQueue(gone, getDb().$client.prepare('SELECT id FROM studies').pluck().get() as number).currentId!;
    expect((await send('GET', `/api/assignments/${goneItem}`, { cookie: goneCookie })).status).toBe(200);
    setUserActive(cliActor(), gone.id, false);
    expect((await send('GET', `/api/assignments/${goneItem}`, { cookie: goneCookie })).status).toBe(401);
    setUserActive(cliActor(), gone.id, true);
    // Disabling ended the account's sessions: the old cookie stays refused, a new sign-in works until sign-out.
    expect((await send('GET', `/api/assignments/${goneItem}`, { cookie: goneCookie })).status).toBe(401);
    const again = await cookieOf(gone);
    expect((await send('GET', `/api/assignments/${goneItem}`, { cookie: again })).status).toBe(200);
    endSessions(gone.id, sessionVersion(gone.id));
    expect((await send('GET', `/api/assignments/${goneItem}`, { cookie: again })).status).toBe(401);
  });

  it('store a submission once however often it is sent, and refuse one from another site or not as JSON', async () => {
    const cookie = await cookieOf(ann);
    const url = `/api/assignments/${first}/submission`;
    const submission = { requestId: 'direct-0001', activeMs: 1200, decision: { decision: 'verify' } };
    const stored = () => count('SELECT count(*) FROM annotations WHERE assignment_id = ?', first);

    const foreign = await post(url, cookie, submission, { origin: 'https://elsewhere.example', host: new URL(base).host });
    expect(foreign.status).toBe(403);
    expect(foreign.body!.error).toContain('was sent from another site (origin https://elsewhere.example)');
    expect((await post(url, cookie, submission, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const plain = await send('POST', url, { cookie, 'content-type': 'text/plain' }, JSON.stringify(submission));
    expect(plain).toMatchObject({
      status: 415,
      body: { error: `POST ${url} takes a JSON body with content-type: application/json, not "text/plain".` },
    });
    expect(stored()).toBe(0);

    const [a, b] = await Promise.all([post(url, cookie, submission), post(url, cookie, submission)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toMatchObject({ ok: true, data: { queue: { submitted: 1 } } });
    expect((await post(url, cookie, submission)).body).toMatchObject({ ok: true, data: { queue: { submitted: 1 } } });
    expect(stored()).toBe(1);
  });

  it("save a draft, and refuse one that is not JSON's shape or too large without writing anything", async () => {
    const cookie = await cookieOf(ann);
    const next = getQueue(ann, getDb().$client.prepare('SELECT id FROM studies').pluck().get() as number).currentId!;
    const url = `/api/assignments/${next}/draft`;
    const draftOf = () =>
      getDb().$client.prepare('SELECT payload FROM drafts WHERE assignment_id = ?').pluck().get(next) as string | undefined;

    const saved = await post(url, cookie, { draft: { decision: 'truncate', afterStep: 2 }, activeMs: 500 });
    expect(saved).toMatchObject({ status: 200, body: { ok: true } });
    expect(JSON.parse(draftOf()!)).toMatchObject({ decision: 'truncate', afterStep: 2 });

    const broken = await post(url, cookie, '{"draft": {"decision": "verify"');
    expect(broken.status).toBe(400);
    const wrong = await post(url, cookie, { draft: { decision: 'maybe' }, activeMs: 500 });
    expect(wrong.status).toBe(400);
    const huge = await post(url, cookie, { draft: { decision: 'verify', note: 'x'.repeat(DIRECT_BODY_LIMIT) }, activeMs: 500 });
    expect(huge).toMatchObject({ status: 413, body: { error: `POST ${url} takes at most ${DIRECT_BODY_LIMIT / 1024} KiB of JSON.` } });
    expect(JSON.parse(draftOf()!)).toMatchObject({ decision: 'truncate', afterStep: 2 });

    // A client that leaves halfway through its body: nothing is written and the server goes on answering.
    await new Promise<void>((resolve) => {
      const half = http.request(`${base}${url}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'content-length': '100' },
      });
      half.on('error', () => resolve());
      half.write('{"draft": {"decision": "discard"');
      setTimeout(() => half.destroy(), 50);
    });
    expect((await send('GET', `/api/assignments/${next}`, { cookie })).status).toBe(200);
    expect(JSON.parse(draftOf()!)).toMatchObject({ decision: 'truncate', afterStep: 2 });
  });

  it('leave every other method and path to Next', async () => {
    const cookie = await cookieOf(ann);
    for (const [method, url] of [
      ['POST', `/api/assignments/${first}`],
      ['GET', `/api/assignments/${first}/submission`],
      ['HEAD', `/api/assignments/${first}`],
      ['GET', `/api/assignments/${first}/`],
      ['GET', `/api/assignments`],
      ['POST', `/api/assignments/${first}/draft/more`],
      ['GET', `/api/studies/1/queue`],
    ]) {
      expect(
        (await send(method, url, { cookie, 'content-type': 'application/json' }, method === 'POST' ? '{}' : undefined)).status,
        `${method} ${url}`,
      ).toBe(599);
    }
  });
});
