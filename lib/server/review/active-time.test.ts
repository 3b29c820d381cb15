import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveDraft } from './draft';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { getJudgeAssignment, submitJudgment } from './judging';
import { getFlowAssignment, getQueue, submitFlowReview, undoLastSubmission } from './flow-review';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';

/*
 * The active time a client reports is credited only as far as the wall clock allows: never more, in total, than
 * the time the reviewer had the item. The clock is faked (Date only; SQLite is real) so the test can let hours pass.
 */

useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const WEEK = 7 * 24 * 3600 * 1000;
const pass = (ms: number) => vi.setSystemTime(Date.now() + ms);
const activeMs = (assignmentId: number) =>
  getDb().$client.prepare('SELECT active_ms FROM assignments WHERE id = ?').pluck().get(assignmentId) as number;

let rev: Actor, judge: Actor;
let flowStudy: number, pairStudy: number;
let n = 0;
const rid = () => `active-time-${++n}`;
const draft = (assignmentId: number, ms: number) => saveDraft(rev, { assignmentId, draft: { decision: 'verify' }, activeMs: ms });

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  rev = await makeUser('rev');
  judge = await makeUser('judge');
  flowStudy = createStudy(lead, { kind: 'flow_review', name: 'Flows', seed: 1 }).id;
  importItems(lead, flowStudy, path.join(SEED, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, flowStudy, { usernames: ['rev'] });
  openStudy(lead, flowStudy);
  pairStudy = createStudy(lead, { kind: 'pairwise', name: 'Pairs', reviewersPerItem: 1, seed: 2 }).id;
  setStudyCriteria(lead, pairStudy, []);
  importItems(lead, pairStudy, path.join(SEED, 'pairwise.jsonl'), 'concord');
  setStudyMembers(lead, pairStudy, { usernames: ['judge'] });
  openStudy(lead, pairStudy);
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
});

afterAll(() => {
  vi.useRealTimers();
});

describe('active time reported by the client', () => {
  it('credits a draft claiming 7 days after 2 s with 2 s', () => {
    const id = getQueue(rev, flowStudy).currentId!;
    getFlowAssignment(rev, id);
    pass(2000);
    draft(id, WEEK);
    expect(activeMs(id)).toBe(2000);
  });

  it('never sums repeated saves and reloads above the elapsed time', () => {
    const id = getQueue(rev, flowStudy).currentId!;
    const before = activeMs(id);
    for (let k = 0; k < 10; k++) {
      pass(1000);
      draft(id, WEEK);
      // A reload serves the item again: its clock does not start over.
      getFlowAssignment(rev, id);
    }
    expect(activeMs(id) - before).toBe(10_000);
    pass(500);
    expect(submitFlowReview(rev, { assignmentId: id, requestId: rid(), activeMs: WEEK, decision: { decision: 'verify' } }).duplicate).toBe(
      false,
    );
    expect(activeMs(id)).toBe(12_500);
  });

  it('credits an honest client exactly what it reports, also when it reports late', () => {
    const id = getQueue(rev, flowStudy).currentId!;
    getFlowAssignment(rev, id);
    // Three seconds of work, then an idle minute with the tab hidden, then five seconds more.
    pass(3000);
    draft(id, 3000);
    pass(60_000);
    draft(id, 3000);
    pass(5000);
    // The report arrives a little after the client counted it.
    pass(200);
    draft(id, 8000);
    expect(activeMs(id)).toBe(8000);
  });

  it('counts nothing from before the previous submission for an item served ahead of time', () => {
    const [current, ahead] = [getQueue(rev, flowStudy).currentId!, getQueue(rev, flowStudy).nextId!];
    getFlowAssignment(rev, current);
    // The screen prefetches the next item while the reviewer works a minute on the current one.
    getFlowAssignment(rev, ahead);
    pass(60_000);
    submitFlowReview(rev, { assignmentId: current, requestId: rid(), activeMs: 60_000, decision: { decision: 'verify' } });
    pass(4000);
    draft(ahead, 64_000);
    expect(activeMs(ahead)).toBe(4000);
  });

  it('does not credit the time between a submission and its undo', () => {
    const id = getQueue(rev, flowStudy).currentId!;
    const before = activeMs(id);
    getFlowAssignment(rev, id);
    pass(1000);
    submitFlowReview(rev, { assignmentId: id, requestId: rid(), activeMs: before + 1000, decision: { decision: 'verify' } });
    pass(3_600_000);
    expect(undoLastSubmission(rev, { studyId: flowStudy }).assignmentId).toBe(id);
    pass(2000);
    draft(id, WEEK);
    expect(activeMs(id) - before).toBe(3000);
  });

  it('credits nothing to an item its reviewer was never served', () => {
    const id = getQueue(rev, flowStudy).nextId!;
    pass(10_000);
    draft(id, WEEK);
    expect(activeMs(id)).toBe(0);
  });

  it('bounds pairwise drafts and judgments the same way', () => {
    const a = getJudgeAssignment(judge, getQueue(judge, pairStudy).currentId!);
    pass(1500);
    saveDraft(judge, { assignmentId: a.assignmentId, draft: { choices: { overall: 'r1' } }, activeMs: WEEK });
    expect(activeMs(a.assignmentId)).toBe(1500);
    pass(1500);
    submitJudgment(judge, { assignmentId: a.assignmentId, requestId: rid(), activeMs: WEEK, choices: { overall: 'r1' } });
    expect(activeMs(a.assignmentId)).toBe(3000);
  });
});
