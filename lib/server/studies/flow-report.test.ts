import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { getFlowAssignment, getQueue, submitFlowReview } from '../review/flow-review';
import { MIN_SECONDS_PER_ITEM, flowReport } from './flow-report';
import { createStudy, openStudy, setStudyMembers } from './studies';

// Issue 26, point 8: one flow submitted a fraction of a second after it appeared made a reviewer's rate 20,224
// items/h. Each submitted flow counts as at least MIN_SECONDS_PER_ITEM seconds of active time in the rate.

useTestDatabase();
afterAll(() => {
  vi.useRealTimers();
});
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

let lead: Actor, quick: Actor, steady: Actor;
let studyId: number;

/** The reviewer opens their next flow, works on it for `ms` of wall time, and submits it with that active time. */
function review(who: Actor, ms: number, n: number) {
  const id = getQueue(who, studyId).currentId!;
  getFlowAssignment(who, id);
  vi.setSystemTime(Date.now() + ms);
  submitFlowReview(who, { assignmentId: id, requestId: `rate-${who.username}-${n}`, activeMs: ms, decision: { decision: 'verify' } });
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  lead = await makeUser('lead', 'lead');
  quick = await makeUser('quick');
  steady = await makeUser('steady');
  studyId = createStudy(lead, { kind: 'flow_review', name: 'Rates', payRate: '0.5', reviewersPerItem: 1, seed: 3 }).id;
  importItems(lead, studyId, KMP, 'concord');
  setStudyMembers(lead, studyId, { usernames: ['quick', 'steady'] });
  openStudy(lead, studyId);
});

describe('items per hour in the flow report', () => {
  it('counts a flow submitted at once as MIN_SECONDS_PER_ITEM seconds, so the rate stays within 3,600 / that', () => {
    review(quick, 178, 1);
    const r = flowReport(lead, studyId).reviewers.find((x) => x.username === 'quick')!;
    expect(r.activeSeconds).toBe(0);
    expect(r.itemsPerHour).toBe(3600 / MIN_SECONDS_PER_ITEM);
  });

  it('measures a reviewer who takes longer than that exactly', () => {
    review(steady, 20_000, 1);
    review(steady, 40_000, 2);
    const r = flowReport(lead, studyId).reviewers.find((x) => x.username === 'steady')!;
    expect(r.activeSeconds).toBe(60);
    expect(r.itemsPerHour).toBe(120);
  });

  it('mixes the two: a quick flow adds its floor, not its fraction of a second', () => {
    review(quick, 30_000, 2);
    // 10 s (the floor for the 0.178 s flow) + 30 s for two flows: 180 items/h, where the raw times gave 238.6.
    expect(flowReport(lead, studyId).reviewers.find((x) => x.username === 'quick')!.itemsPerHour).toBe(180);
  });
});
