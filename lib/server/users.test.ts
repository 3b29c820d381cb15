import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/lib/testing/db';
import type { Actor } from './actor';
import { DomainError } from './errors';
import { createUser, loadActor, lockDurationMs, resetPassword, setUserActive, setUserRole, verifyCredentials } from './users';

useTestDatabase();
let admin: Actor;
let ann: Actor;

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
