import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { codeOf } from '@/test/errors';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';
import { saveDraft } from './draft';
import { getQueue } from './flow-review';

// One draft save for every kind: the draft is read with the schema of the assignment's own kind.
useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const stored = (assignmentId: number) =>
  getDb().$client.prepare('SELECT payload FROM drafts WHERE assignment_id = ?').pluck().get(assignmentId) as string | undefined;

let rev: Actor, other: Actor;
let flowId: number, pairId: number;

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  rev = await makeUser('rev');
  other = await makeUser('other');
  const flows = createStudy(lead, { kind: 'flow_review', name: 'Flows', seed: 1 }).id;
  importItems(lead, flows, path.join(SEED, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, flows, { usernames: ['rev'] });
  openStudy(lead, flows);
  const pairs = createStudy(lead, { kind: 'pairwise', name: 'Pairs', reviewersPerItem: 1, seed: 2 }).id;
  setStudyCriteria(lead, pairs, []);
  importItems(lead, pairs, path.join(SEED, 'pairwise.jsonl'), 'concord');
  setStudyMembers(lead, pairs, { usernames: ['rev'] });
  openStudy(lead, pairs);
  flowId = getQueue(rev, flows).currentId!;
  pairId = getQueue(rev, pairs).currentId!;
});

describe('saving a draft', () => {
  it("keeps each kind's draft as its kind reads it", () => {
    expect(saveDraft(rev, { assignmentId: flowId, draft: { decision: 'truncate', afterStep: 2, note: 'n' }, activeMs: 0 })).toEqual({
      saved: true,
    });
    expect(JSON.parse(stored(flowId)!)).toEqual({ decision: 'truncate', afterStep: 2, note: 'n' });
    saveDraft(rev, { assignmentId: pairId, draft: { choices: { overall: 'r2' }, focus: 0 }, activeMs: 0 });
    expect(JSON.parse(stored(pairId)!)).toEqual({ choices: { overall: 'r2' }, focus: 0 });
  });

  it('refuses a draft of another kind, naming the field, and keeps the saved one', () => {
    const error = (() => {
      try {
        saveDraft(rev, { assignmentId: pairId, draft: { choices: 'verify' }, activeMs: 0 });
      } catch (e) {
        return e as { code: string; fieldErrors?: Record<string, string> };
      }
    })();
    expect(error?.code).toBe('invalid');
    expect(Object.keys(error?.fieldErrors ?? {})).toEqual(['draft.choices']);
    expect(JSON.parse(stored(pairId)!)).toEqual({ choices: { overall: 'r2' }, focus: 0 });
  });

  it("refuses someone else's assignment without saving anything", () => {
    expect(codeOf(() => saveDraft(other, { assignmentId: flowId, draft: { decision: 'discard' }, activeMs: 0 }))).toBe('not_found');
    expect(JSON.parse(stored(flowId)!).decision).toBe('truncate');
  });
});
