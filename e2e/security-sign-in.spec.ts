import { expect, request, test } from '@playwright/test';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OwnServer, cliOn, withReadonlyDb } from './support/server';

// Sign-in throttling under parallel attempts, over HTTP against the production build on a database of this spec's
// own (ports 3230 and 3231): throttling locks the test's own address, which must not touch the shared server.
const PASSWORD = 'throttle-test-password';
const ACCOUNT_FREE = 5;
const ADDRESS_FREE = 50;

test.describe.configure({ mode: 'serial' });

let dir = '';
let dbFile = '';
let server: OwnServer;

type Answer = { status: number; outcome: 'in' | 'wrong' | 'throttled' | 'other'; location: string; ms: number };

/** A client with Auth.js's CSRF token and cookie, as the sign-in page holds them; reused for every attempt. */
async function signInClient(baseURL: string) {
  const ctx = await request.newContext({ baseURL });
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const attempt = async (username: string, password: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const t0 = performance.now();
    const res = await ctx.post('/api/auth/callback/credentials', {
      form: { csrfToken, username, password, callbackUrl: `${baseURL}/` },
      headers,
      maxRedirects: 0,
    });
    const ms = performance.now() - t0;
    const location = res.headers().location ?? '';
    const signedIn = res.headersArray().some((h) => h.name.toLowerCase() === 'set-cookie' && /authjs\.session-token=[^;]/.test(h.value));
    const code = new URL(location, baseURL).searchParams.get('code');
    const outcome = signedIn ? 'in' : code === 'credentials' ? 'wrong' : code === 'throttled' ? 'throttled' : 'other';
    // The Location differs only by host between servers; keep its path and query for comparisons.
    return { status: res.status(), outcome, location: location.replace(/^https?:\/\/[^/]+/, ''), ms };
  };
  return { ctx, attempt };
}

const count = (answers: Answer[], outcome: Answer['outcome']) => answers.filter((a) => a.outcome === outcome).length;

const counter = (kind: string, key: string) =>
  withReadonlyDb(dbFile, (db) => db.prepare('SELECT attempts FROM sign_in_attempts WHERE kind = ? AND key = ?').get(kind, key)) as
    { attempts: number } | undefined;

const failuresAudited = (username: string) =>
  withReadonlyDb(
    dbFile,
    (db) =>
      (
        db
          .prepare(
            "SELECT count(*) AS n FROM audit_log a JOIN users u ON u.id = a.user_id WHERE a.action = 'sign_in_failed' AND u.username = ?",
          )
          .get(username) as { n: number }
      ).n,
  );

/** Forgets every address counter, so the next test starts with the test's own address unthrottled. */
function forgetAddresses() {
  const db = new Database(dbFile);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("DELETE FROM sign_in_attempts WHERE kind = 'address'").run();
  } finally {
    db.close();
  }
}

let client: Awaited<ReturnType<typeof signInClient>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-throttle-'));
  dbFile = path.join(dir, 'concord.db');
  for (const u of ['burst', 'target', 'known', 'office', 'proxied'])
    cliOn(dbFile, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  server = new OwnServer(dbFile, 3230);
  await server.start();
  client = await signInClient(server.baseURL);
});

test.afterAll(async () => {
  await client?.ctx.dispose();
  await server?.kill9();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('40 parallel wrong passwords for one account: 5 are checked, 35 refused unchecked', async () => {
  const answers = await Promise.all(Array.from({ length: 40 }, () => client.attempt('burst', 'wrong-password')));
  expect(count(answers, 'wrong'), JSON.stringify(answers.map((a) => a.outcome))).toBe(ACCOUNT_FREE);
  expect(count(answers, 'throttled')).toBe(40 - ACCOUNT_FREE);
  expect(counter('account', 'burst')?.attempts).toBe(ACCOUNT_FREE);
  expect(failuresAudited('burst')).toBe(ACCOUNT_FREE);
});

test('the right password among wrong ones in parallel does not get in once the limit is reached', async () => {
  const first = await Promise.all(Array.from({ length: ACCOUNT_FREE }, () => client.attempt('target', 'wrong-password')));
  expect(count(first, 'wrong')).toBe(ACCOUNT_FREE);
  const answers = await Promise.all(Array.from({ length: 35 }, (_, i) => client.attempt('target', i === 17 ? PASSWORD : 'wrong-password')));
  expect(answers.map((a) => a.outcome)).toEqual(Array(35).fill('throttled'));
  expect(counter('account', 'target')?.attempts).toBe(ACCOUNT_FREE);
});

test('an unknown username is throttled the same way, with answers indistinguishable from a known one', async () => {
  const known = await Promise.all(Array.from({ length: 40 }, () => client.attempt('known', 'wrong-password')));
  const unknown = await Promise.all(Array.from({ length: 40 }, () => client.attempt('no-such-person', 'wrong-password')));
  const shape = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.outcome} ${a.location}`).sort();
  expect(shape(unknown)).toEqual(shape(known));
  expect(count(unknown, 'wrong')).toBe(ACCOUNT_FREE);
  expect(counter('account', 'no-such-person')?.attempts).toBe(ACCOUNT_FREE);

  // Same cost too: a checked wrong password for an unknown name verifies a hash as a known one does. Taken in
  // turns, so both see the same load; the fastest of each, as the machine is shared (a skipped hash costs ~1 ms).
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < 4; i++) {
    times.known.push((await client.attempt('office', 'wrong-password')).ms);
    times.unknown.push((await client.attempt(`ghost-${i}`, 'wrong-password')).ms);
  }
  const ratio = Math.min(...times.unknown) / Math.min(...times.known);
  expect(ratio, JSON.stringify(times)).toBeGreaterThan(0.4);
  expect(ratio, JSON.stringify(times)).toBeLessThan(2.5);
});

test('one address is limited across accounts, and a forged X-Forwarded-For does not make it another', async () => {
  forgetAddresses();
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => client.attempt(`spray-${i}`, 'wrong-password', { 'x-forwarded-for': `10.9.${i}.1` })),
  );
  expect(count(answers, 'wrong')).toBe(ADDRESS_FREE);
  expect(count(answers, 'throttled')).toBe(60 - ADDRESS_FREE);
  expect(counter('address', '127.0.0.1')?.attempts).toBe(ADDRESS_FREE);
  // Locked: even the right password of an account nobody attacked is refused from this address.
  expect((await client.attempt('proxied', PASSWORD, { 'x-forwarded-for': '10.9.99.1' })).outcome).toBe('throttled');
  forgetAddresses();
  expect((await client.attempt('proxied', PASSWORD)).outcome).toBe('in');
  // A success takes back its own attempt only: the address keeps what the failures before it added.
  for (let i = 0; i < 3; i++) expect((await client.attempt('proxied', 'wrong-password')).outcome).toBe('wrong');
  expect((await client.attempt('proxied', PASSWORD)).outcome).toBe('in');
  expect(counter('address', '127.0.0.1')?.attempts).toBe(3);
  expect(counter('account', 'proxied')).toBeUndefined();
});

test('behind a trusted proxy (CONCORD_TRUST_PROXY=1) the address is the one the proxy appended', async () => {
  forgetAddresses();
  process.env.CONCORD_TRUST_PROXY = '1';
  const proxied = new OwnServer(dbFile, 3231);
  try {
    await proxied.start();
  } finally {
    delete process.env.CONCORD_TRUST_PROXY;
  }
  const behind = await signInClient(proxied.baseURL);
  try {
    // The client forged 1.2.3.4; the proxy appended the address it saw, 203.0.113.7.
    for (let i = 0; i < 2; i++) {
      const a = await behind.attempt(`far-${i}`, 'wrong-password', { 'x-forwarded-for': '1.2.3.4, 203.0.113.7' });
      expect(a.outcome).toBe('wrong');
    }
    expect(counter('address', '203.0.113.7')?.attempts).toBe(2);
    expect(counter('address', '1.2.3.4')).toBeUndefined();
    expect(counter('address', '127.0.0.1')).toBeUndefined();
  } finally {
    await behind.ctx.dispose();
    await proxied.kill9();
  }
});
