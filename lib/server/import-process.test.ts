import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/lib/testing/db';
import { flowsJsonl } from '../../e2e/support/server';
import type { Actor } from './actor';
import { DomainError } from './errors';
import { importItemsForRequest } from './import-process';
import { ImportRejected } from './imports';
import { createStudy } from './studies';

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
