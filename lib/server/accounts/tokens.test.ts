import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { audit } from './audit';
import { withToken } from './token-context';
import { actorForToken, createApiToken, listApiTokens, revokeApiToken } from './tokens';
import { setUserActive, setUserRole } from './users';

useTestDatabase();
const sql = () => getDb().$client;
let admin: Actor;
let lead: Actor;
let ann: Actor;

beforeAll(async () => {
  admin = await makeUser('tadmin', 'admin');
  lead = await makeUser('tlead', 'lead');
  ann = await makeUser('tann');
});

describe('personal access tokens', () => {
  it('shows the secret once, keeps only its hash, and acts as its owner', () => {
    const made = createApiToken(ann, { name: 'notebook' });
    expect(made.token).toMatch(/^cnc_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made.token.slice(4), 'base64url')).toHaveLength(32);
    const stored = sql().prepare('SELECT * FROM api_tokens WHERE id = ?').get(made.id) as Record<string, unknown>;
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(4));
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(actorForToken(made.token)).toEqual({ actor: ann, token: { id: made.id, name: 'notebook' } });
    const listed = listApiTokens(ann);
    expect(listed.map((t) => [t.name, t.last4, t.state])).toEqual([['notebook', made.token.slice(-4), 'active']]);
    expect(JSON.stringify(listed)).not.toContain(made.token.slice(4, 40));
  });

  it('expires after 90 days by default, at most 365, and refuses an expired token', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const made = createApiToken(ann, { name: 'default life' }, now);
    expect(made.expiresAt).toBe('2026-04-01T00:00:00.000Z');
    expect(codeOf(() => createApiToken(ann, { name: 'too long', expiresInDays: 366 }))).toBe('invalid');
    expect(codeOf(() => createApiToken(ann, { name: '   ' }))).toBe('invalid');
    expect(codeOf(() => actorForToken(made.token, new Date('2026-03-31T23:59:59Z')))).toBe('ok');
    expect(codeOf(() => actorForToken(made.token, new Date('2026-04-01T00:00:00Z')))).toBe('unauthenticated');
    expect(listApiTokens(ann, {}, new Date('2026-04-02T00:00:00Z')).find((t) => t.id === made.id)?.state).toBe('expired');
  });

  it('refuses a wrong or malformed token, and one whose account is disabled, until it is enabled again', async () => {
    const made = createApiToken(lead, { name: 'pipeline' });
    const wrong = made.token.slice(0, -1) + (made.token.endsWith('A') ? 'B' : 'A');
    for (const bad of [wrong, '', 'cnc_', made.token + 'x', `Bearer ${made.token}`])
      expect(codeOf(() => actorForToken(bad))).toBe('unauthenticated');
    await setUserActive(admin, lead.id, false);
    expect(codeOf(() => actorForToken(made.token))).toBe('unauthenticated');
    await setUserActive(admin, lead.id, true);
    expect(actorForToken(made.token).actor.role).toBe('lead');
  });

  it("acts with the account's current role, not the role it had when the token was made", async () => {
    const someone = await makeUser('tpromoted');
    const made = createApiToken(someone, { name: 'role follows' });
    expect(actorForToken(made.token).actor.role).toBe('annotator');
    await setUserRole(admin, someone.id, 'lead');
    expect(actorForToken(made.token).actor.role).toBe('lead');
  });

  it('is revoked by its owner or an admin, at once; others cannot even see it', () => {
    const mine = createApiToken(ann, { name: 'to revoke' });
    expect(codeOf(() => revokeApiToken(lead, mine.id))).toBe('not_found');
    expect(codeOf(() => actorForToken(mine.token))).toBe('ok');
    expect(revokeApiToken(ann, mine.id).state).toBe('revoked');
    expect(codeOf(() => actorForToken(mine.token))).toBe('unauthenticated');
    expect(revokeApiToken(ann, mine.id).state).toBe('revoked');
    const other = createApiToken(lead, { name: 'admin revokes' });
    expect(revokeApiToken(admin, other.id).state).toBe('revoked');
    expect(codeOf(() => actorForToken(other.token))).toBe('unauthenticated');
    const actions = sql().prepare("SELECT action, user_id FROM audit_log WHERE action = 'token_revoked' ORDER BY id").all();
    expect(actions).toEqual([
      { action: 'token_revoked', user_id: ann.id },
      { action: 'token_revoked', user_id: admin.id },
    ]);
  });

  it("lets only an admin make, list or revoke someone else's tokens", () => {
    expect(codeOf(() => createApiToken(lead, { name: 'for ann', username: 'tann' }))).toBe('forbidden');
    expect(codeOf(() => listApiTokens(lead, { username: 'tann' }))).toBe('forbidden');
    expect(codeOf(() => listApiTokens(lead, { all: true }))).toBe('forbidden');
    const forAnn = createApiToken(admin, { name: 'made by admin', username: 'tann' });
    expect(forAnn.username).toBe('tann');
    expect(actorForToken(forAnn.token).actor.id).toBe(ann.id);
    expect(listApiTokens(admin, { username: 'tann' }).some((t) => t.id === forAnn.id)).toBe(true);
    expect(new Set(listApiTokens(admin, { all: true }).map((t) => t.username))).toEqual(new Set(['tann', 'tlead', 'tpromoted']));
    expect(codeOf(() => createApiToken(admin, { name: 'nobody', username: 'nosuchone' }))).toBe('invalid');
  });

  it('gives no token to an account that cannot sign in', () => {
    sql().prepare("INSERT INTO users (username, display_name, role) VALUES ('tpseudo', 'Imported rater', 'annotator')").run();
    expect(codeOf(() => createApiToken(admin, { name: 'pseudo', username: 'tpseudo' }))).toBe('invalid');
  });

  it('writes its last use at most once a minute', () => {
    const made = createApiToken(ann, { name: 'busy' });
    const t0 = new Date(Date.now() + 1000);
    actorForToken(made.token, t0);
    actorForToken(made.token, new Date(t0.getTime() + 30_000));
    expect(listApiTokens(ann).find((t) => t.id === made.id)?.lastUsedAt).toBe(t0.toISOString());
    const later = new Date(t0.getTime() + 61_000);
    actorForToken(made.token, later);
    expect(listApiTokens(ann).find((t) => t.id === made.id)?.lastUsedAt).toBe(later.toISOString());
  });

  it('names the token in the audit entry of a change made through it', () => {
    const made = createApiToken(ann, { name: 'audited' });
    withToken(made.id, () => audit(getDb(), { userId: ann.id, action: 'probe_through_token' }));
    audit(getDb(), { userId: ann.id, action: 'probe_on_screen' });
    const rows = sql()
      .prepare(
        "SELECT a.action, t.name FROM audit_log a LEFT JOIN api_tokens t ON t.id = a.token_id WHERE a.action LIKE 'probe_%' ORDER BY a.id",
      )
      .all();
    expect(rows).toEqual([
      { action: 'probe_through_token', name: 'audited' },
      { action: 'probe_on_screen', name: null },
    ]);
  });
});
