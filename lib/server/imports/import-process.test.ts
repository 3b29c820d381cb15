import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { flowsJsonl } from '@/e2e/support/server';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { importItemsForRequest } from './import-process';
import { ImportRejected } from './imports';
import { createStudy } from '../studies/studies';
import { childCommand } from './child-process';

const { dir } = useTestDatabase();
const count = (q: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(q)
    .pluck()
    .get(...a) as number;

let lead: Actor, annotator: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann');
});
const newStudy = (name: string) => createStudy(lead, { kind: 'flow_review', name, reviewersPerItem: 1 }).id;

// inProcessBytes = 0: every file goes to the child process.
describe('an upload imported by a child process', () => {
  it('imports with the same report, and the server process keeps running meanwhile', async () => {
    const studyId = newStudy('Child');
    const file = writeTemp(dir, 'child.jsonl', flowsJsonl('child', 20_000));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const report = await importItemsForRequest(lead, studyId, file, 'concord', 'child.jsonl', 0).finally(() => clearInterval(timer));
    expect(report).toEqual({ records: 20_000, inserted: 20_000, unchanged: 0 });
    expect(count("SELECT count(*) FROM imports WHERE study_id = ? AND state = 'done' AND filename = 'child.jsonl'", studyId)).toBe(1);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(20_000);
    // The event loop ran throughout: an import in this process would have held it for the whole time.
    expect(ticks).toBeGreaterThan(20);
  }, 60_000);

  it('refuses a bad file with each line and field, as in the server itself, and writes nothing', async () => {
    const studyId = newStudy('Bad');
    const lines = flowsJsonl('bad', 5).trim().split('\n');
    lines[2] = '{"id": "x", "problem": {"text": "p"}, "steps": [{"speaker": "teacher", "text": "hi"}]}';
    lines[4] = '{not json';
    const file = writeTemp(dir, 'bad.jsonl', lines.join('\n'));
    const error = await importItemsForRequest(lead, studyId, file, 'concord', 'bad.jsonl', 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).errors.map((e) => [e.line, e.path])).toEqual([
      [3, 'steps[0].speaker'],
      [5, expect.any(String)],
    ]);
    expect((error as ImportRejected).errorCount).toBe(2);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
    expect(count('SELECT count(*) FROM imports WHERE study_id = ?', studyId)).toBe(0);
  }, 60_000);

  it('checks the caller again: an annotator is refused the same way', async () => {
    const studyId = newStudy('Refused');
    const file = writeTemp(dir, 'refused.jsonl', flowsJsonl('refused', 3));
    const inProcess = await importItemsForRequest(annotator, studyId, file, 'concord', 'r.jsonl').catch((e: unknown) => e);
    const child = await importItemsForRequest(annotator, studyId, file, 'concord', 'r.jsonl', 0).catch((e: unknown) => e);
    expect(child).toBeInstanceOf(DomainError);
    expect([(child as DomainError).code, (child as DomainError).message]).toEqual([
      (inProcess as DomainError).code,
      (inProcess as DomainError).message,
    ]);
  }, 60_000);
});

/** Gone, or a zombie nobody has reaped yet. */
function exited(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

async function until(what: string, check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// A stand-in for the web server: starts the import process as import-process.ts does (same command, same pipes),
// prints its pid and waits. Killing it alone is what an OOM kill of the server does.
const STAND_IN_SERVER = `
const { spawn } = require('node:child_process');
const command = JSON.parse(process.argv[1]);
const child = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.resume();
child.stderr.resume();
process.stdout.write(child.pid + '\\n');
setInterval(() => {}, 60000);
`;

describe('an import process whose server is killed on its own', () => {
  it('undoes what it wrote before its final commit, and ends', async () => {
    const studyId = newStudy('Orphan');
    const file = writeTemp(dir, 'orphan.jsonl', flowsJsonl('orphan', 30_000));
    const job = { userId: lead.id, studyId, file, format: 'concord', filename: 'orphan.jsonl' };
    const command = childCommand('import-child', [JSON.stringify(job)]);
    const server = spawn(process.execPath, ['-e', STAND_IN_SERVER, JSON.stringify(command)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const serverExited = new Promise((resolve) => server.once('exit', resolve));
    let childPid = 0;
    try {
      childPid = await new Promise<number>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
      // Some batches are in when the server dies.
      await until('batches of the import', () => count('SELECT count(*) FROM items WHERE study_id = ?', studyId) >= 2_000, 60_000);
    } finally {
      server.kill('SIGKILL');
      await serverExited;
    }
    await until('the import process to end', () => exited(childPid), 30_000);
    // Undone by the import process itself: no later start of the server or the CLI was needed.
    expect(count('SELECT count(*) FROM imports WHERE study_id = ?', studyId)).toBe(0);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
  }, 90_000);
});
