import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { DomainError } from '../errors';
import type { Actor } from '../actor';
import { getAdjudicationItem, submitAdjudication } from './adjudication';
import { importItems } from '../imports/imports';
import { getJudgeAssignment, submitJudgment } from './judging';
import { getQueue, submitFlowReview, undoLastSubmission } from './flow-review';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';

useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const sql = getDb;
const count = (query: string, ...args: unknown[]) =>
  sql()
    .$client.prepare(query)
    .pluck()
    .get(...args) as number;

/** The DomainError a call fails with (its code and message); fails the test if the call succeeds. */
function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected the call to fail');
}

let lead: Actor, ann1: Actor, ann2: Actor, adj: Actor;
let flowStudy: number, pairStudy: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [ann1, ann2, adj] = await Promise.all(['ann1', 'ann2', 'adj'].map((u) => makeUser(u)));
  flowStudy = createStudy(lead, { kind: 'flow_review', name: 'Flows', reviewersPerItem: 2, seed: 3 }).id;
  importItems(lead, flowStudy, path.join(SEED, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, flowStudy, { usernames: ['ann1', 'ann2'] });
  openStudy(lead, flowStudy);

  pairStudy = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 5 }).id;
  setStudyCriteria(lead, pairStudy, []);
  importItems(lead, pairStudy, path.join(SEED, 'pairwise.jsonl'), 'concord');
  setStudyMembers(lead, pairStudy, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
  openStudy(lead, pairStudy);
});

describe('flow submissions by request id', () => {
  it('answers a retry with the same decision as a duplicate and writes one row', () => {
    const assignmentId = getQueue(ann1, flowStudy).currentId!;
    const input = { assignmentId, requestId: 'flow-retry-0001', activeMs: 0, decision: { decision: 'truncate', afterStep: 2, note: 'ok' } };
    expect(submitFlowReview(ann1, input)).toEqual({ assignmentId, revision: 1, duplicate: false });
    // Fields in another order and padding around the note are the same decision.
    const again = { ...input, activeMs: 5000, decision: { note: ' ok ', afterStep: 2, decision: 'truncate' } };
    expect(submitFlowReview(ann1, again)).toEqual({ assignmentId, revision: 1, duplicate: true });
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(1);
  });

  it('refuses the same request id with another decision and keeps the stored one', () => {
    const assignmentId = getQueue(ann1, flowStudy).currentId!;
    const input = { assignmentId, requestId: 'flow-changed-01', activeMs: 0, decision: { decision: 'verify' } };
    submitFlowReview(ann1, input);
    const changed = failure(() => submitFlowReview(ann1, { ...input, decision: { decision: 'discard', reasons: ['off_topic'] } }));
    expect(changed.code).toBe('conflict');
    expect(changed.message).toMatch(/already used for a different submission/);
    // Nor can the id be reused for another item.
    const other = getQueue(ann1, flowStudy).currentId!;
    expect(failure(() => submitFlowReview(ann1, { ...input, assignmentId: other })).message).toMatch(/different submission/);
    expect(sql().$client.prepare('SELECT decision, reasons FROM annotations WHERE assignment_id = ?').all(assignmentId)).toEqual([
      { decision: 'verify', reasons: null },
    ]);
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', other)).toBe(0);
  });

  it('answers the replay of an undone submission with a conflict, not a duplicate', () => {
    const assignmentId = getQueue(ann1, flowStudy).currentId!;
    const input = { assignmentId, requestId: 'flow-undone-001', activeMs: 0, decision: { decision: 'verify' } };
    submitFlowReview(ann1, input);
    expect(undoLastSubmission(ann1, { studyId: flowStudy }).assignmentId).toBe(assignmentId);
    const replay = failure(() => submitFlowReview(ann1, input));
    expect(replay.code).toBe('conflict');
    expect(replay.message).toMatch(/undone/);
    expect(count("SELECT count(*) FROM assignments WHERE id = ? AND state = 'pending'", assignmentId)).toBe(1);
    // Submitted anew (new id), the old id still does not pass for the counting submission.
    submitFlowReview(ann1, { ...input, requestId: 'flow-undone-002' });
    expect(failure(() => submitFlowReview(ann1, input)).message).toMatch(/undone/);
    expect(submitFlowReview(ann1, { ...input, requestId: 'flow-undone-002' })).toMatchObject({ revision: 2, duplicate: true });
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(2);
  });

  it('keeps request ids per person: two reviewers sending the same id are both stored', () => {
    const mine = getQueue(ann1, flowStudy).currentId!;
    const theirs = getQueue(ann2, flowStudy).currentId!;
    const requestId = 'shared-id-0001';
    expect(submitFlowReview(ann1, { assignmentId: mine, requestId, activeMs: 0, decision: { decision: 'verify' } }).duplicate).toBe(false);
    expect(
      submitFlowReview(ann2, { assignmentId: theirs, requestId, activeMs: 0, decision: { decision: 'discard', reasons: ['off_topic'] } }),
    ).toMatchObject({ assignmentId: theirs, duplicate: false });
    expect(count('SELECT count(*) FROM annotations WHERE request_id = ?', requestId)).toBe(2);
  });
});

describe('pairwise judgments and adjudications by request id', () => {
  let itemId: number;

  it('answers a retried judgment as a duplicate, refuses other choices under its id, and keeps ids per person', () => {
    const mine = getJudgeAssignment(ann1, getQueue(ann1, pairStudy).currentId!);
    const input = { assignmentId: mine.assignmentId, requestId: 'judge-same-0001', activeMs: 0, choices: { overall: 'r1' } };
    expect(submitJudgment(ann1, input)).toMatchObject({ revision: 1, duplicate: false });
    expect(submitJudgment(ann1, input)).toMatchObject({ revision: 1, duplicate: true });
    expect(failure(() => submitJudgment(ann1, { ...input, choices: { overall: 'r2' } })).message).toMatch(/different submission/);
    expect(sql().$client.prepare('SELECT screen_choice FROM labels').pluck().all()).toEqual(['r1']);

    // ann2 judges the same item, under the same request id, the other way.
    const theirs = getJudgeAssignment(ann2, getQueue(ann2, pairStudy).currentId!);
    expect(theirs.itemId).toBe(mine.itemId);
    itemId = mine.itemId;
    // Each sees their own order: the opposite verdict is the other side when both see the same first response.
    const opposite = mine.responses[0] === theirs.responses[0] ? 'r2' : 'r1';
    expect(submitJudgment(ann2, { ...input, assignmentId: theirs.assignmentId, choices: { overall: opposite } })).toMatchObject({
      duplicate: false,
    });
    expect(count('SELECT count(*) FROM annotations WHERE request_id = ?', input.requestId)).toBe(2);
  });

  it('answers a retried ruling as a duplicate and refuses another ruling under its id', () => {
    const item = getAdjudicationItem(adj, pairStudy, itemId);
    const [overall] = item.criteria;
    expect(overall).toMatchObject({ id: 'overall', agreed: false });
    const choice = overall.reviewers[0];
    const input = { studyId: pairStudy, itemId, requestId: 'ruling-00000001', choices: { overall: choice }, rationales: {} };
    expect(submitAdjudication(adj, input).duplicate).toBe(false);
    expect(submitAdjudication(adj, { ...input, rationales: { overall: '  ' } }).duplicate).toBe(true);
    const other = overall.reviewers[1];
    const changed = failure(() => submitAdjudication(adj, { ...input, choices: { overall: other } }));
    expect(changed).toMatchObject({ code: 'conflict' });
    expect(changed.message).toMatch(/already used for a different submission/);
    expect(count('SELECT count(*) FROM adjudications')).toBe(1);
    expect(getAdjudicationItem(adj, pairStudy, itemId).criteria[0].ruling).toBe(choice);
    // The lead may rule too; the adjudicator's request id is no obstacle to the lead's.
    const byLead = { ...input, choices: { overall: 'tie' }, rationales: { overall: 'A tie on reflection.' } };
    expect(submitAdjudication(lead, byLead).duplicate).toBe(false);
    expect(count('SELECT count(*) FROM adjudications WHERE request_id = ?', input.requestId)).toBe(2);
  });
});
