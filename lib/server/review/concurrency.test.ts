import { spawn } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { importItems } from '../imports/imports';
import type { Actor } from '../actor';
import { getQueue, undoLastSubmission } from './flow-review';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';

useTestDatabase();
const tsx = createRequire(import.meta.url).resolve('tsx');
const count = (sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as number;

/** Starts `n` submitting processes at once and collects what each one was told. */
function race(args: string[][]): Promise<string[]> {
  return Promise.all(
    args.map(
      (a) =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, ['--conditions=react-server', '--import', tsx, 'test/submit-worker.ts', ...a], {
            env: process.env,
          });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.on('exit', () => resolve(out));
        }),
    ),
  );
}

let assignmentId: number;
let studyId: number;
let rev: Actor;

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  rev = await makeUser('rev');
  const id = (studyId = createStudy(lead, { kind: 'flow_review', name: 'Race', seed: 1 }).id);
  importItems(lead, id, path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl'), 'concord');
  setStudyMembers(lead, id, { usernames: ['rev'] });
  openStudy(lead, id);
  assignmentId = getQueue(rev, id).currentId!;
  // The worker processes open the file themselves; this process lets go of its connection meanwhile.
  closeDb();
});

describe('concurrent writers on one database file', () => {
  it('writes one annotation when several processes submit the same assignment at once', async () => {
    const results = await race(Array.from({ length: 6 }, (_, k) => ['rev', String(assignmentId), `racer-request-${k}`]));
    expect(results.filter((r) => r === 'written')).toHaveLength(1);
    expect(results.filter((r) => r === 'conflict')).toHaveLength(5);
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(1);
  }, 60_000);

  it('treats the same request sent twice at once as one submission', async () => {
    expect(undoLastSubmission(rev, { studyId }).assignmentId).toBe(assignmentId);
    closeDb();
    const results = await race([
      ['rev', String(assignmentId), 'same-request-id'],
      ['rev', String(assignmentId), 'same-request-id'],
    ]);
    expect(results.sort()).toEqual(['duplicate', 'written']);
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(2);
  }, 60_000);
});
