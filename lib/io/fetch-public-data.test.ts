import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDataServer, type DataServer } from '@/test/data-server';
import { fetchPublicData, sha256File, UnknownDatasetError, type FetchOptions } from './fetch-public-data';
import type { Manifest } from './public-data-manifest';

/* The fetcher on a small manifest made here, against a loopback server that can misbehave. */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-fetch-'));
const src = path.join(root, 'src');
let server: DataServer;
let dest: string;
let run = 0;

const FILES: Record<string, Buffer> = {
  // Big enough to arrive in several chunks, so that a cut lands mid-body.
  'alpha/one.json': crypto.randomBytes(400_000),
  'alpha/LICENSE': Buffer.from('Permission is granted to test.\n'),
  'beta/sub/two.jsonl': Buffer.from('{"a":1}\n{"a":2}\n'.repeat(5000)),
};

function manifest(base: string): Manifest {
  const file = (p: string) => ({
    path: p,
    url: `${base}/${p}`,
    sha256: crypto.createHash('sha256').update(FILES[p]).digest('hex'),
    bytes: FILES[p].length,
  });
  return {
    datasets: [
      {
        name: 'alpha',
        title: 'Alpha',
        repo: 'example/alpha',
        commit: 'abc1234',
        licence: 'MIT',
        cite: 'A. Author',
        files: [file('alpha/one.json'), file('alpha/LICENSE')],
      },
      {
        name: 'beta',
        title: 'Beta',
        repo: 'example/beta',
        commit: 'def5678',
        licence: 'CC BY-SA 4.0',
        cite: 'B. Author',
        files: [file('beta/sub/two.jsonl')],
      },
    ],
  };
}

const fetchInto = (extra: Partial<FetchOptions> = {}) =>
  fetchPublicData({ manifest: manifest(server.url), dir: dest, backoffMs: 5, attempts: 3, ...extra });

/** Every file under `dir`, relative, with `/`. */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  for (const [p, bytes] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(src, p)), { recursive: true });
    fs.writeFileSync(path.join(src, p), bytes);
  }
  server = await startDataServer(src);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  dest = path.join(root, `dest-${++run}`);
  server.requests.clear();
  server.ranges.clear();
  server.tamper.clear();
  server.cut.clear();
  server.ranged = true;
});

describe('fetchPublicData', () => {
  it('puts every file in the layout of the manifest with its checksum, then writes the attribution README', async () => {
    const report = await fetchInto();
    expect(report.failed).toEqual([]);
    expect(report.files.map((f) => f.status)).toEqual(['downloaded', 'downloaded', 'downloaded']);
    expect(listing(dest)).toEqual(['README.md', 'alpha/LICENSE', 'alpha/one.json', 'beta/sub/two.jsonl']);
    for (const f of manifest(server.url).datasets.flatMap((d) => d.files)) expect(await sha256File(path.join(dest, f.path))).toBe(f.sha256);
    const readme = fs.readFileSync(path.join(dest, 'README.md'), 'utf8');
    expect(readme).toContain('[example/alpha](https://github.com/example/alpha) @ `abc1234` | MIT | A. Author');
    expect(readme).toContain('CC BY-SA 4.0');
    expect(report.readme).toBe('written');
  });

  it('says up to date on a second run and asks the server for nothing', async () => {
    await fetchInto();
    const before = server.total();
    const again = await fetchInto();
    expect(again.files.map((f) => f.status)).toEqual(['up-to-date', 'up-to-date', 'up-to-date']);
    expect(server.total()).toBe(before);
    expect(again.readme).toBe('unchanged');
  });

  it('refuses altered bytes: nothing under the final name, the failure names the file and both checksums', async () => {
    server.tamper.add('alpha/one.json');
    const m = manifest(server.url);
    const report = await fetchInto();
    expect(report.failed).toHaveLength(1);
    const [bad] = report.failed;
    expect(bad).toMatchObject({ path: 'alpha/one.json', status: 'failed', reason: 'checksum' });
    expect(bad.status === 'failed' && bad.message).toMatch(
      new RegExp(
        `^alpha/one\\.json: checksum mismatch \\(expected ${m.datasets[0].files[0].sha256}, got [0-9a-f]{64}\\); nothing written for this file$`,
      ),
    );
    expect(listing(dest)).toEqual(['README.md', 'alpha/LICENSE', 'beta/sub/two.jsonl']);
    // Alpha is incomplete, so the README lists beta only.
    const readme = fs.readFileSync(path.join(dest, 'README.md'), 'utf8');
    expect(readme).not.toContain('example/alpha');
    expect(readme).toContain('example/beta');
  });

  it('replaces a file present with the wrong bytes', async () => {
    fs.mkdirSync(path.join(dest, 'alpha'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'alpha/LICENSE'), 'edited by hand\n');
    const report = await fetchInto({ only: ['alpha'] });
    expect(report.files.map((f) => f.status)).toEqual(['downloaded', 'downloaded']);
    expect(fs.readFileSync(path.join(dest, 'alpha/LICENSE'))).toEqual(FILES['alpha/LICENSE']);
  });

  it('resumes a body cut mid-way with a Range request and ends with the right file', async () => {
    server.cut.set('alpha/one.json', 1);
    const retries: string[] = [];
    const report = await fetchInto({ progress: { retry: (_f, m) => retries.push(m) } });
    expect(report.failed).toEqual([]);
    expect(report.files[0]).toMatchObject({ status: 'downloaded', tries: 2 });
    expect(server.requests.get('alpha/one.json')).toBe(2);
    expect(server.ranges.get('alpha/one.json')).toEqual([expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
    expect(retries).toEqual([
      expect.stringMatching(/^alpha\/one\.json: connection closed mid-body after [\d,]+ of 400,000 bytes; resuming \(try 2 of 3\)$/),
    ]);
    expect(fs.readFileSync(path.join(dest, 'alpha/one.json'))).toEqual(FILES['alpha/one.json']);
  });

  it('starts over when the server ignores Range, and still ends with the right file', async () => {
    server.ranged = false;
    server.cut.set('alpha/one.json', 2);
    const report = await fetchInto();
    expect(report.failed).toEqual([]);
    expect(report.files[0]).toMatchObject({ status: 'downloaded', tries: 3 });
    expect(fs.readFileSync(path.join(dest, 'alpha/one.json'))).toEqual(FILES['alpha/one.json']);
  });

  it('gives up on a body that is always cut, leaving nothing partial behind', async () => {
    server.cut.set('alpha/one.json', -1);
    const report = await fetchInto();
    expect(server.requests.get('alpha/one.json')).toBe(3);
    expect(report.failed).toEqual([
      expect.objectContaining({
        path: 'alpha/one.json',
        reason: 'interrupted',
        message: expect.stringMatching(/^alpha\/one\.json: download failed after 3 tries .*; nothing written for this file$/),
      }),
    ]);
    // No final name, no temporary file: only the files that arrived whole.
    expect(listing(dest)).toEqual(['README.md', 'alpha/LICENSE', 'beta/sub/two.jsonl']);
  });

  it('reports a folder it cannot write as that, without asking the server', async () => {
    fs.mkdirSync(dest, { recursive: true });
    fs.writeFileSync(path.join(dest, 'alpha'), 'a file where a folder should be');
    const report = await fetchInto();
    expect(report.failed).toEqual([
      expect.objectContaining({
        path: 'alpha/one.json',
        reason: 'io',
        message: expect.stringMatching(/^alpha\/one\.json: .*; nothing written for this file$/),
      }),
      expect.objectContaining({ path: 'alpha/LICENSE', reason: 'io' }),
    ]);
    expect([...server.requests.keys()]).toEqual(['beta/sub/two.jsonl']);
  });

  it('fetches only the datasets named, and refuses an unknown name listing the known ones', async () => {
    const report = await fetchInto({ only: ['beta'] });
    expect(report.files.map((f) => f.path)).toEqual(['beta/sub/two.jsonl']);
    expect([...server.requests.keys()]).toEqual(['beta/sub/two.jsonl']);
    await expect(fetchInto({ only: ['beta', 'gamma'] })).rejects.toThrow(UnknownDatasetError);
    await expect(fetchInto({ only: ['gamma'] })).rejects.toThrow('unknown dataset "gamma"; known: alpha, beta');
  });

  it('reads from a mirror when given one, never from the upstream URLs', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const report = await fetchPublicData({ manifest: manifest(dead), dir: dest, mirror: `${server.url}/`, backoffMs: 5 });
    expect(report.failed).toEqual([]);
    expect(server.requests.get('alpha/one.json')).toBe(1);
  });

  it('reports an unreachable host once and skips its other files without waiting on each', async () => {
    const port = await closedPort();
    const report = await fetchPublicData({ manifest: manifest(`http://127.0.0.1:${port}`), dir: dest, backoffMs: 5, attempts: 2 });
    expect(report.unreachable).toEqual([`127.0.0.1:${port}`]);
    expect(report.files.map((f) => f.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(report.files[0]).toMatchObject({
      reason: 'unreachable',
      message: expect.stringContaining(`could not reach 127.0.0.1:${port} (ECONNREFUSED`),
    });
    expect(listing(dest)).toEqual([]);
  });

  it('with ifMissing leaves present files unread and fetches the absent ones', async () => {
    fs.mkdirSync(path.join(dest, 'alpha'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'alpha/one.json'), 'not checked');
    const report = await fetchInto({ ifMissing: true });
    expect(report.files.map((f) => f.status)).toEqual(['present', 'downloaded', 'downloaded']);
    expect(server.requests.has('alpha/one.json')).toBe(false);
  });

  it('keeps a README.md it did not write, and clears old temporary files a killed run left', async () => {
    fs.mkdirSync(path.join(dest, 'alpha'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'README.md'), '# Our own notes\n');
    fs.writeFileSync(path.join(dest, 'alpha/.one.json.0123abcd.part'), 'half');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(dest, 'alpha/.one.json.0123abcd.part'), hourAgo, hourAgo);
    // A fresh one may be another run's, still writing: it stays.
    fs.writeFileSync(path.join(dest, 'alpha/.LICENSE.89abcdef.part'), 'in progress');
    const report = await fetchInto();
    expect(report.readme).toBe('kept-foreign');
    expect(fs.readFileSync(path.join(dest, 'README.md'), 'utf8')).toBe('# Our own notes\n');
    expect(listing(dest)).toEqual(['README.md', 'alpha/.LICENSE.89abcdef.part', 'alpha/LICENSE', 'alpha/one.json', 'beta/sub/two.jsonl']);
  });
});
