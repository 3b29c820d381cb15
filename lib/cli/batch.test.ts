import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, cliInBatch, runInBatch } from '@/test/cli-batch';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-batch-cli-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'cli.db') };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function concord(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env, input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const answers = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { code: number; stdout: string; stderr: string });

describe('concord batch', () => {
  it('runs one command per line in order, each answered on a line of its own as the command alone would end', () => {
    const lines = [
      JSON.stringify({ args: ['user', 'add', 'batch-lead', '--role', 'lead'], input: 'a-good-password\n' }),
      JSON.stringify(['study', 'create', '--kind', 'pairwise', '--name', 'Batched', '--criteria', 'none', '--json']),
      '',
      JSON.stringify(['gold', 'mark', '999', '--item', 'x', '--labels', '{}']),
      JSON.stringify(['no-such-command']),
      'not json',
      JSON.stringify(['batch']),
      JSON.stringify(['token', 'create', '--user', 'batch-lead', '--name', 'after the errors', '--json']),
    ];
    const r = concord(['batch'], `${lines.join('\n')}\n`);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const [user, study, refused, unknown, notJson, nested, token, ...more] = answers(r.out);
    expect(more).toEqual([]);
    expect(user).toEqual({ code: 0, stdout: expect.stringMatching(/^Created lead "batch-lead" \(id \d+\)\.\n$/), stderr: '' });
    expect(study.code).toBe(0);
    const { id } = JSON.parse(study.stdout) as { id: number };
    expect(id).toBeGreaterThan(0);
    // A failing command answers with its exit code and stderr, exactly as the same command alone; the batch goes on.
    const alone = concord(['gold', 'mark', '999', '--item', 'x', '--labels', '{}']);
    expect(alone.code).toBe(1);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: alone.err });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "no-such-command"');
    expect(notJson).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('concord batch: not JSON') });
    expect(nested).toEqual({ code: 2, stdout: '', stderr: 'concord batch: a batch cannot start another batch\n' });
    expect(token.code).toBe(0);
    expect(JSON.parse(token.stdout)).toMatchObject({ token: expect.any(String) });

    // What the batch wrote is in the database, for the next process to read.
    const db = new Database(env.CONCORD_DB, { readonly: true });
    try {
      expect(db.prepare('SELECT name, kind FROM studies WHERE id = ?').get(id)).toEqual({ name: 'Batched', kind: 'pairwise' });
      expect(db.prepare("SELECT role FROM users WHERE username = 'batch-lead'").get()).toEqual({ role: 'lead' });
    } finally {
      db.close();
    }
  });

  it('is the synchronous CLI of the tests (test/cli-batch.ts): one process answers many calls with what each command prints', () => {
    const first = runInBatch(env, ['study', 'create', '--kind', 'flow_review', '--name', 'Through the helper', '--json']);
    expect(first.code).toBe(0);
    const { id } = JSON.parse(first.stdout) as { id: number };
    expect(cliInBatch(env, ['study', 'edit', String(id), '--name', 'Renamed'])).toBe(`Study ${id}: "Renamed", guidelines version 1.\n`);
    expect(cliInBatch(env, ['user', 'add', 'batch-annotator', '--role', 'annotator'], 'another-good-password\n')).toMatch(
      /^Created annotator "batch-annotator"/,
    );
    // Each command reads its own input: a second `user add` without one is refused as with an empty stdin.
    const alone = concord(['user', 'add', 'no-password', '--role', 'annotator']);
    expect(alone).toEqual({ code: 1, out: '', err: 'concord user add: password: Use at least 8 characters.\n' });
    expect(runInBatch(env, ['user', 'add', 'no-password', '--role', 'annotator'])).toEqual({ code: 1, stdout: '', stderr: alone.err });
    const refused = (() => {
      try {
        cliInBatch(env, ['study', 'open', '999999']);
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(CliError);
    expect(refused).toMatchObject({ status: 1, stderr: concord(['study', 'open', '999999']).err });
  });
});
