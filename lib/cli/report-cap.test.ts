import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-cli-cap-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'cli.db') };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const concord = (args: string[]) => {
  const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('report --bootstrap on the command line', () => {
  it('has the same cap as the server, and says it', () => {
    const { id } = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Cap', '--json']).out) as { id: number };
    const over = concord(['report', 'agreement', '--study', String(id), '--bootstrap', '10001']);
    expect(over.code).not.toBe(0);
    expect(over.err).toContain('bootstrap: at most 10,000 bootstrap replicates, not 10,001.');
    expect(over.out).toBe('');
    const at = concord(['report', 'agreement', '--study', String(id), '--bootstrap', '10000', '--json']);
    expect(at.code).toBe(0);
    expect(JSON.parse(at.out).bootstrap.replicates).toBe(10_000);
  }, 60_000);
});
