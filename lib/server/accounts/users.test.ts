import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findSignInCount } from '@/db/queries/users';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import {
  ADDRESS_LIMIT,
  createUser,
  endSessions,
  loadActor,
  lockDurationMs,
  resetPassword,
  setUserActive,
  setUserRole,
  verifyCredentials,
} from './users';

useTestDatabase();
let admin: Actor;
let ann: Actor;

/** What each sign-in attempt came to: in, wrong (checked and refused) or throttled (refused unchecked). */
async function settle(attempts: Promise<unknown>[]) {
  return (await Promise.allSettled(attempts)).map((r) => {
    if (r.status === 'fulfilled') return r.value ? 'in' : 'wrong';
    if ((r.reason as DomainError).code === 'throttled') return 'throttled';
    throw r.reason;
  });
}

beforeAll(async () => {
  admin = await makeUser('root', 'admin');
  ann = await makeUser('ann');
});

describe('accounts', () => {
  it('signs in with the right password only, and never returns the hash', async () => {
    expect(await verifyCredentials('ann', 'password-123')).toMatchObject({ id: ann.id, sessionVersion: 1 });
    expect(await verifyCredentials('ann', 'wrong-password')).toBeNull();
    expect(await verifyCredentials('nobody', 'password-123')).toBeNull();
    const created = await createUser(admin, { username: 'New.User', displayName: 'N', password: 'long-enough', role: 'lead' });
    expect(created.username).toBe('new.user');
    expect(JSON.stringify(created)).not.toContain('argon2');
  });

  it('throttles an account after repeated failures, then lets the right password in once the lock ends', async () => {
    const victim = await makeUser('victim');
    for (let i = 0; i < 5; i++) expect(await verifyCredentials('victim', 'nope')).toBeNull();
    await expect(verifyCredentials('victim', 'password-123')).rejects.toMatchObject({ code: 'throttled' });
    const later = new Date(Date.now() + lockDurationMs(5) + 1000);
    expect(await verifyCredentials('victim', 'password-123', later)).toMatchObject({ id: victim.id });
    expect(lockDurationMs(4)).toBe(0);
    expect(lockDurationMs(6)).toBe(2 * lockDurationMs(5));
    expect(lockDurationMs(50)).toBe(15 * 60_000);
  });

  it('counts parallel wrong passwords before checking them: of 40 at once, 5 are checked and 35 throttled', async () => {
    await makeUser('burst');
    const outcomes = await settle(Array.from({ length: 40 }, () => verifyCredentials('burst', 'wrong-password')));
    expect(outcomes.filter((o) => o === 'wrong')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'throttled')).toHaveLength(35);
    expect(findSignInCount(getDb(), 'account', 'burst')).toMatchObject({ attempts: 5 });
  });

  it('keeps the right password out once the limit is reached, even among 34 wrong ones in parallel', async () => {
    await makeUser('target');
    await settle(Array.from({ length: 5 }, () => verifyCredentials('target', 'wrong-password')));
    const tries = Array.from({ length: 35 }, (_, i) => verifyCredentials('target', i === 17 ? 'password-123' : 'wrong-password'));
    expect(new Set(await settle(tries))).toEqual(new Set(['throttled']));
  });

  it('throttles an unknown username exactly like a known one, so throttling tells nothing about which names exist', async () => {
    await makeUser('known');
    const known = await settle(Array.from({ length: 12 }, () => verifyCredentials('known', 'wrong-password')));
    const unknown = await settle(Array.from({ length: 12 }, () => verifyCredentials('no-such-name', 'wrong-password')));
    expect(unknown.sort()).toEqual(known.sort());
    expect(findSignInCount(getDb(), 'account', 'no-such-name')).toMatchObject({ attempts: 5 });
    const messages = await Promise.all(
      ['known', 'no-such-name'].map((u) => verifyCredentials(u, 'x').catch((e: DomainError) => e.message.replace(/\d+/g, 'N'))),
    );
    expect(messages[0]).toBe(messages[1]);
  });

  it('limits one client address across accounts, and a success takes back only its own attempt', async () => {
    const sprayer = '203.0.113.9';
    const spray = await settle(Array.from({ length: 60 }, (_, i) => verifyCredentials(`spray${i}`, 'wrong-password', new Date(), sprayer)));
    expect(spray.filter((o) => o === 'wrong')).toHaveLength(ADDRESS_LIMIT.freeAttempts);
    expect(spray.filter((o) => o === 'throttled')).toHaveLength(60 - ADDRESS_LIMIT.freeAttempts);
    // The address is locked even for a right password; another address is not.
    await makeUser('office');
    await expect(verifyCredentials('office', 'password-123', new Date(), sprayer)).rejects.toMatchObject({ code: 'throttled' });
    expect(await verifyCredentials('office', 'password-123', new Date(), '198.51.100.7')).not.toBeNull();

    const home = '198.51.100.8';
    for (let i = 0; i < 3; i++) expect(await verifyCredentials('office', 'wrong-password', new Date(), home)).toBeNull();
    expect(await verifyCredentials('office', 'password-123', new Date(), home)).not.toBeNull();
    expect(findSignInCount(getDb(), 'account', 'office')).toBeUndefined();
    expect(findSignInCount(getDb(), 'address', home)).toMatchObject({ attempts: 3, lockedUntil: null });
  });

  it('ends sessions at once when an account is disabled or its password reset, and applies role changes', async () => {
    const user = await makeUser('temp');
    expect(loadActor(user.id, 1)).toMatchObject({ role: 'annotator' });
    setUserRole(admin, user.id, 'lead');
    expect(loadActor(user.id, 1)).toMatchObject({ role: 'lead' });
    setUserActive(admin, user.id, false);
    expect(loadActor(user.id, 1)).toBeNull();
    expect(await verifyCredentials('temp', 'password-123')).toBeNull();
    setUserActive(admin, user.id, true);
    expect(loadActor(user.id, 1)).toBeNull(); // the old session stays revoked
    expect(loadActor(user.id, 2)).not.toBeNull();
    await resetPassword(admin, user.id, 'another-password');
    expect(loadActor(user.id, 2)).toBeNull();
  });

  it('signing out ends every session of the account at once, and a stale token cannot end newer ones', async () => {
    const user = await makeUser('leaver');
    expect(loadActor(user.id, 1)).not.toBeNull();
    endSessions(user.id, 1);
    expect(loadActor(user.id, 1)).toBeNull();
    expect(loadActor(user.id, 2)).not.toBeNull();
    endSessions(user.id, 1); // an old cookie signing out again
    expect(loadActor(user.id, 2)).not.toBeNull();
  });

  it('lets only admins manage accounts and keeps the last admin', async () => {
    await expect(createUser(ann, { username: 'x1', displayName: 'x', password: 'password-1', role: 'admin' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(() => setUserRole(admin, admin.id, 'lead')).toThrow(DomainError);
    await expect(
      createUser(admin, { username: 'ann', displayName: 'dup', password: 'password-1', role: 'annotator' }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(createUser(admin, { username: 'x2', displayName: 'x', password: 'short', role: 'annotator' })).rejects.toMatchObject({
      code: 'invalid',
    });
  });
});
