import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File } from '@/lib/io/fetch-public-data';
import { publicDataDir } from '@/lib/io/public-data';
import { datasetNames, PUBLIC_DATA_MANIFEST } from '@/lib/io/public-data-manifest';
import { startDataServer, type DataServer } from '@/test/data-server';

/*
 * `concord data fetch` as a user runs it, against a loopback server that serves the pinned public data folder
 * as a mirror. Nothing here reaches beyond 127.0.0.1.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-data-fetch-'));
let server: DataServer;
afterAll(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});
beforeAll(async () => {
  server = await startDataServer(publicDataDir());
});

/** Runs the CLI without blocking this process, which serves the files it asks for. */
function concord(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['lib/cli/bin.mjs', ...args], {
      env: { ...process.env, CONCORD_DB: path.join(root, 'never-created.db'), ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const ALL = PUBLIC_DATA_MANIFEST.datasets.flatMap((d) => d.files);

describe('concord data fetch', () => {
  it('fetches every file of the manifest from a mirror, each matching its recorded checksum and size', async () => {
    const dir = path.join(root, 'all');
    const r = await concord(['data', 'fetch', '--mirror', server.url, '--dir', dir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${dir}: ${ALL.length} downloaded, 0 up to date, 0 failed.`);
    for (const f of ALL) {
      const file = path.join(dir, f.path);
      expect(fs.statSync(file).size, f.path).toBe(f.bytes);
      expect(await sha256File(file), f.path).toBe(f.sha256);
      expect(r.err).toContain(`${f.path}  ${f.bytes.toLocaleString('en-US')}/${f.bytes.toLocaleString('en-US')} bytes  downloaded`);
    }
    expect(server.total()).toBe(ALL.length);
    // The attribution: every dataset's repository, commit and licence, and the upstream LICENSE files.
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    for (const d of PUBLIC_DATA_MANIFEST.datasets)
      expect(readme).toContain(`[${d.repo}](https://github.com/${d.repo}) @ \`${d.commit}\` | ${d.licence}`);
    expect(fs.readFileSync(path.join(dir, 'bridge/LICENSE'), 'utf8')).toContain('MIT License');
    expect(fs.readFileSync(path.join(dir, 'pandalm/LICENSE'), 'utf8')).toContain('Apache License');
    // The command never opens the database.
    expect(fs.existsSync(path.join(root, 'never-created.db'))).toBe(false);

    // A second run reads the files, finds them right and asks the server for nothing.
    const before = server.total();
    const again = await concord(['data', 'fetch', '--mirror', server.url, '--dir', dir]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`${dir}: 0 downloaded, ${ALL.length} up to date, 0 failed.`);
    expect(again.err).toContain('mathdial/test.jsonl: up to date');
    expect(server.total()).toBe(before);
  });

  it('refuses a corrupted file: exit 1, the message names it, nothing under its name', async () => {
    const dir = path.join(root, 'corrupt');
    server.tamper.add('pandalm/testset-v1.json');
    try {
      // The folder comes from CONCORD_PUBLIC_DATA this time.
      const r = await concord(['data', 'fetch', '--mirror', server.url, '--only', 'pandalm'], { CONCORD_PUBLIC_DATA: dir });
      const expected = ALL.find((f) => f.path === 'pandalm/testset-v1.json')!.sha256;
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        new RegExp(
          `pandalm/testset-v1\\.json: checksum mismatch \\(expected ${expected}, got [0-9a-f]{64}\\); nothing written for this file`,
        ),
      );
      expect(r.err).toContain('1 file(s) not fetched');
      expect(fs.existsSync(path.join(dir, 'pandalm/testset-v1.json'))).toBe(false);
      expect(fs.readdirSync(path.join(dir, 'pandalm')).sort()).toEqual([
        'LICENSE',
        'gpt-3.5-turbo-testset-v1.json',
        'pandalm-7b-testset-v1.json',
      ]);
    } finally {
      server.tamper.clear();
    }
  });

  it('takes several names after --only, and refuses an unknown one listing the known', async () => {
    const dir = path.join(root, 'only');
    const r = await concord(['data', 'fetch', '--mirror', server.url, '--dir', dir, '--only', 'mrbench', 'aitutor-evalkit']);
    expect(r.code, r.err).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['README.md', 'aitutor-evalkit', 'mrbench']);

    const bad = await concord(['data', 'fetch', '--mirror', server.url, '--dir', dir, '--only', 'mathdail']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`unknown dataset "mathdail"; known: ${datasetNames().join(', ')}`);
  });

  it('with --quiet-offline, an unreachable source is a message and exit 0; without it, a failure', async () => {
    const s = http.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    await new Promise((r) => s.close(r));
    const dir = path.join(root, 'offline');
    const args = ['data', 'fetch', '--mirror', `http://127.0.0.1:${port}`, '--dir', dir, '--if-missing'];

    const quiet = await concord([...args, '--quiet-offline']);
    expect(quiet.code, quiet.err).toBe(0);
    expect(quiet.err).toContain(
      `could not reach 127.0.0.1:${port}: the demo will hold the hand-written studies only; run \`npx concord data fetch\` later`,
    );
    const loud = await concord(args);
    expect(loud.code).toBe(1);
    expect(loud.err).toContain(`mathdial/test.jsonl: could not reach 127.0.0.1:${port} (ECONNREFUSED`);
    expect(fs.existsSync(path.join(dir, 'mathdial/test.jsonl'))).toBe(false);
  });
});
