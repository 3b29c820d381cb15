import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveDraft } from './draft';
import { getDb } from '@/db/client';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { exportFlows } from '../studies/exports';
import { flowReport } from '../studies/flow-report';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getAdjudicationItem, submitAdjudication } from './adjudication';
import { getFlowAssignment, getMySubmission, getQueue, reviseSubmission, submitFlowReview, undoLastSubmission } from './flow-review';
import { abandonRevision, getSubmissionHistory } from './item-actions';
import { getJudgeAssignment, submitJudgment } from './judging';

// Issue 21, point 6b: revising a submission from the history withdraws nothing. The submission keeps counting (the
// lead's counts, the payout, the exports) until the new revision is submitted, which then counts once; a revision
// left unfinished keeps the old submission.

useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
let n = 0;
const rid = () => `revise-${String(++n).padStart(6, '0')}`;
const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;

let lead: Actor, a1: Actor, a2: Actor, adj: Actor;
let flowStudy: number;
let pairStudy: number;
/** a1's first flow, verified before each test. */
let flowId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [a1, a2, adj] = await Promise.all(['a1', 'a2', 'adj'].map((u) => makeUser(u)));
  flowStudy = createStudy(lead, { kind: 'flow_review', name: 'Flows', payRate: '0.5', reviewersPerItem: 1, seed: 3 }).id;
  importItems(lead, flowStudy, path.join(SEED, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, flowStudy, { usernames: ['a1'] });
  openStudy(lead, flowStudy);
  pairStudy = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 4 }).id;
  importItems(lead, pairStudy, path.join(SEED, 'pairwise.jsonl'), 'concord');
  setStudyMembers(lead, pairStudy, { usernames: ['a1', 'a2'], adjudicator: 'adj' });
  openStudy(lead, pairStudy);

  // a1 verifies two flows.
  flowId = getQueue(a1, flowStudy).currentId!;
  submitFlowReview(a1, { assignmentId: flowId, requestId: rid(), activeMs: 0, decision: { decision: 'verify' } });
  submitFlowReview(a1, {
    assignmentId: getQueue(a1, flowStudy).currentId!,
    requestId: rid(),
    activeMs: 0,
    decision: { decision: 'verify' },
  });
});

/** What the lead and the exports see of a1's work in the flow study. */
function leadView() {
  const report = flowReport(lead, flowStudy);
  const me = report.reviewers.find((r) => r.username === 'a1')!;
  const decisions = [...exportFlows(lead, flowStudy, 'decisions', 'jsonl').lines].map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    submitted: me.submitted,
    payout: me.payout,
    verified: report.verified,
    discarded: report.discarded,
    decisions: decisions.map((d) => d.decision),
    queueSubmitted: getQueue(a1, flowStudy).submitted,
  };
}

const discard = { decision: 'discard', reasons: ['other'], note: 'The last step is wrong.' };

describe('revising a submission', () => {
  it('keeps the submission counted while the revision is under way, and comes first in the queue with the old decision as the draft', () => {
    const before = leadView();
    expect(before).toMatchObject({ submitted: 2, payout: 1, verified: 2, discarded: 0, queueSubmitted: 2 });

    expect(reviseSubmission(a1, { assignmentId: flowId })).toEqual({ assignmentId: flowId, studyId: flowStudy });
    const queue = getQueue(a1, flowStudy);
    expect(queue.currentId).toBe(flowId);
    expect(queue.revising).toEqual([{ assignmentId: flowId, submittedAt: getMySubmission(a1, flowId).submittedAt, revision: 1 }]);
    expect(getFlowAssignment(a1, flowId).draft).toEqual({ decision: 'verify' });
    // A draft of the revision is saved (another decision): still nothing changes for the lead.
    saveDraft(a1, { assignmentId: flowId, draft: discard, activeMs: 0 });
    expect(leadView()).toEqual(before);
    expect(getSubmissionHistory(a1, { studyId: flowStudy }).total).toBe(2);
    expect(getMySubmission(a1, flowId)).toMatchObject({ revision: 1, editable: true });
    // Clicked again (a double click, or back from the history): the draft under way is kept.
    reviseSubmission(a1, { assignmentId: flowId });
    expect(getFlowAssignment(a1, flowId).draft).toMatchObject({ decision: 'discard' });
    expect(leadView()).toEqual(before);
  });

  it('counts the submitted revision once, instead of the old one, and writes it once however often it is sent', () => {
    const request = { assignmentId: flowId, requestId: rid(), activeMs: 0, decision: discard };
    expect(submitFlowReview(a1, request)).toEqual({ assignmentId: flowId, revision: 2, duplicate: false });
    expect(submitFlowReview(a1, request)).toEqual({ assignmentId: flowId, revision: 2, duplicate: true });
    // Another request for the same revision (a second tab) is refused: the revision is over.
    expect(codeOf(() => submitFlowReview(a1, { ...request, requestId: rid() }))).toBe('conflict');

    expect(leadView()).toMatchObject({ submitted: 2, payout: 1, verified: 1, discarded: 1, queueSubmitted: 2 });
    expect(leadView().decisions.sort()).toEqual(['discard', 'verify']);
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', flowId)).toBe(2);
    const queue = getQueue(a1, flowStudy);
    expect(queue.revising).toEqual([]);
    expect(queue.currentId).not.toBe(flowId);
    expect(getSubmissionHistory(a1, { studyId: flowStudy }).items[0]).toMatchObject({ assignmentId: flowId, revision: 2 });
    expect(count('SELECT count(*) FROM drafts WHERE assignment_id = ?', flowId)).toBe(0);
  });

  it('keeps the old submission when a revision is left unfinished or given up', () => {
    reviseSubmission(a1, { assignmentId: flowId });
    saveDraft(a1, { assignmentId: flowId, draft: { decision: 'verify' }, activeMs: 0 });
    const during = leadView();
    expect(during).toMatchObject({ submitted: 2, verified: 1, discarded: 1 });
    // Left (the reviewer went elsewhere, reloaded): still first, still counting the discard.
    expect(getQueue(a1, flowStudy).currentId).toBe(flowId);
    expect(leadView()).toEqual(during);
    // Given up: the draft goes, the queue moves on, revision 2 still counts; giving up twice is harmless.
    expect(abandonRevision(a1, { assignmentId: flowId })).toEqual({ assignmentId: flowId, studyId: flowStudy });
    abandonRevision(a1, { assignmentId: flowId });
    expect(getQueue(a1, flowStudy)).toMatchObject({ revising: [], submitted: 2 });
    expect(getQueue(a1, flowStudy).currentId).not.toBe(flowId);
    expect(count('SELECT count(*) FROM drafts WHERE assignment_id = ?', flowId)).toBe(0);
    expect(leadView()).toEqual(during);
    expect(getMySubmission(a1, flowId).revision).toBe(2);
    // With no revision under way, a submission of the item is refused.
    expect(
      codeOf(() => submitFlowReview(a1, { assignmentId: flowId, requestId: rid(), activeMs: 0, decision: { decision: 'verify' } })),
    ).toBe('conflict');
  });

  it('keeps undo as it was: the most recent submission is taken back, a revision of it under way ends', () => {
    const last = getQueue(a1, flowStudy).undoableId!;
    expect(last).toBe(flowId);
    reviseSubmission(a1, { assignmentId: flowId });
    undoLastSubmission(a1, { studyId: flowStudy });
    const queue = getQueue(a1, flowStudy);
    expect(queue).toMatchObject({ revising: [], submitted: 1, currentId: flowId });
    expect(getFlowAssignment(a1, flowId)).toMatchObject({ state: 'pending', draft: { decision: 'discard' } });
    submitFlowReview(a1, { assignmentId: flowId, requestId: rid(), activeMs: 0, decision: { decision: 'verify' } });
    expect(leadView()).toMatchObject({ submitted: 2, verified: 2, discarded: 0 });
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', flowId)).toBe(3);
  });

  it('does not offer or accept a revision once an adjudicator has ruled on the item', () => {
    // a1 ties everything on the first pair, a2 prefers reply 2: disputed; a1 starts revising it, then the ruling comes.
    const mine = getQueue(a1, pairStudy).currentId!;
    const item = getJudgeAssignment(a1, mine);
    const all = (choice: string) => Object.fromEntries(item.criteria.map((c) => [c.id, choice]));
    submitJudgment(a1, { assignmentId: mine, requestId: rid(), activeMs: 0, choices: all('tie') });
    const theirs = getDb()
      .$client.prepare('SELECT id FROM assignments WHERE item_id = ? AND user_id = ?')
      .pluck()
      .get(item.itemId, a2.id) as number;
    submitJudgment(a2, { assignmentId: theirs, requestId: rid(), activeMs: 0, choices: all('r2') });
    reviseSubmission(a1, { assignmentId: mine });
    expect(getQueue(a1, pairStudy).currentId).toBe(mine);
    const ai = getAdjudicationItem(adj, pairStudy, item.itemId);
    submitAdjudication(adj, {
      studyId: pairStudy,
      itemId: item.itemId,
      requestId: rid(),
      choices: Object.fromEntries(ai.criteria.filter((c) => !c.agreed).map((c) => [c.id, 'tie'])),
    });
    const queue = getQueue(a1, pairStudy);
    expect(queue.revising).toEqual([]);
    expect(queue.currentId).not.toBe(mine);
    expect(queue.submitted).toBe(1);
    expect(codeOf(() => submitJudgment(a1, { assignmentId: mine, requestId: rid(), activeMs: 0, choices: all('r1') }))).toBe('conflict');
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', mine)).toBe(1);
  });
});
