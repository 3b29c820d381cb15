import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runInBatch } from '@/test/cli-batch';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-token-cli-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'cli.db') };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One `concord batch` process for the file (test/cli-batch.ts): each command runs as it would alone. */
function concord(args: string[], input?: string) {
  const r = runInBatch(env, args, input);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

describe('concord token', () => {
  it('makes a token once, lists it without its secret, and revokes it', () => {
    expect(concord(['user', 'add', 'pipeline', '--role', 'lead'], 'a-good-password\n').code).toBe(0);
    const made = concord(['token', 'create', '--user', 'pipeline', '--name', 'nightly import', '--expires', '30d', '--json']);
    expect(made.err).toBe('');
    const { id, token, expiresAt } = JSON.parse(made.out) as { id: number; token: string; expiresAt: string };
    expect(token).toMatch(/^cnc_/);
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const listed = concord(['token', 'list', '--user', 'pipeline', '--json']);
    expect(listed.out).not.toContain(token.slice(4));
    expect(JSON.parse(listed.out)).toMatchObject([
      { id, name: 'nightly import', username: 'pipeline', state: 'active', last4: token.slice(-4) },
    ]);
    expect(concord(['token', 'list']).out).toContain(`${id}\tpipeline\tnightly import\t…${token.slice(-4)}\tactive`);

    const db = new Database(env.CONCORD_DB, { readonly: true });
    try {
      const stored = db.prepare('SELECT token_hash FROM api_tokens WHERE id = ?').pluck().get(id);
      expect(stored).not.toContain(token.slice(4));
    } finally {
      db.close();
    }

    expect(concord(['token', 'revoke', String(id)]).out).toContain('is revoked');
    expect(JSON.parse(concord(['token', 'list', '--user', 'pipeline', '--json']).out)[0].state).toBe('revoked');
  });

  it('refuses what it cannot do with a message that says what, and a non-zero exit', () => {
    const noUser = concord(['token', 'create', '--name', 'x']);
    expect(noUser.code).not.toBe(0);
    expect(noUser.err).toContain('--user is required');
    const badExpiry = concord(['token', 'create', '--user', 'pipeline', '--name', 'x', '--expires', 'soon']);
    expect(badExpiry.code).not.toBe(0);
    expect(badExpiry.err).toContain('--expires: "soon"');
    const tooLong = concord(['token', 'create', '--user', 'pipeline', '--name', 'x', '--expires', '2y']);
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.err).toContain('at most 365 days');
    const nobody = concord(['token', 'create', '--user', 'nosuchperson', '--name', 'x']);
    expect(nobody.err).toContain('There is no account "nosuchperson"');
    expect(concord(['token', 'revoke', '999']).err).toContain('Token 999 was not found');
  });
});
