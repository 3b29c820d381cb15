import { encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { authSecret } from '@/lib/env';
import { useTestDatabase } from '@/test/db';
import { decodeSessionToken } from './session';

useTestDatabase(); // the secret is kept beside a database of the test's own

const SALT = 'authjs.session-token';
const token = (claims: Record<string, unknown>, maxAge = 3600, secret = authSecret(), salt = SALT) =>
  encode({ token: claims, secret, salt, maxAge });

describe('session tokens', () => {
  it('reads the account id and session version of a token Auth.js made, again from the cache', async () => {
    const t = await token({ uid: 7, sv: 2, name: 'Ann' });
    expect(await decodeSessionToken(t, SALT)).toMatchObject({ uid: 7, sv: 2 });
    expect(await decodeSessionToken(t, SALT)).toMatchObject({ uid: 7, sv: 2 });
  });

  it('refuses a token that was altered, made with another secret or for another cookie', async () => {
    const t = await token({ uid: 7, sv: 0 });
    const parts = t.split('.');
    parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith('AA') ? 'BB' : 'AA');
    expect(await decodeSessionToken(parts.join('.'), SALT)).toBeNull();
    expect(await decodeSessionToken(await token({ uid: 7, sv: 0 }, 3600, 'another-secret-of-at-least-32-chars!!'), SALT)).toBeNull();
    expect(await decodeSessionToken(t, '__Secure-authjs.session-token')).toBeNull();
    expect(await decodeSessionToken('not-a-token', SALT)).toBeNull();
  });

  it('refuses an expired token and one without a usable account id', async () => {
    expect(await decodeSessionToken(await token({ uid: 7, sv: 0 }, -60), SALT)).toBeNull();
    expect(await decodeSessionToken(await token({ sv: 0 }), SALT)).toBeNull();
    expect(await decodeSessionToken(await token({ uid: 'x', sv: 0 }), SALT)).toBeNull();
  });

  it('forgets a cached token once it has expired', async () => {
    const t = await token({ uid: 9, sv: 1 }, 2);
    expect(await decodeSessionToken(t, SALT)).toMatchObject({ uid: 9 });
    const now = Date.now;
    Date.now = () => now() + 5_000;
    try {
      expect(await decodeSessionToken(t, SALT)).toBeNull();
    } finally {
      Date.now = now;
    }
  });
});
