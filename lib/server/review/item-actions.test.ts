import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getAdjudicationItem, submitAdjudication } from './adjudication';
import { getFlowAssignment, getMySubmission, getQueue, reviseSubmission, submitFlowReview, undoLastSubmission } from './flow-review';
import { getFlaggedItems, getSubmissionHistory, setComment, setFlag, skipAssignment } from './item-actions';
import { getJudgeAssignment, submitJudgment } from './judging';

useTestDatabase();
const SEED = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;
let n = 0;
const rid = () => `req-${String(++n).padStart(6, '0')}`;

let lead: Actor, a1: Actor, a2: Actor, adj: Actor, stranger: Actor;
let flowStudy: number, pairStudy: number;

/** The counts the queue_counts triggers keep, next to the counts of the assignments themselves. */
function countsAgree(studyId: number, who: Actor) {
  const kept = getDb().$client.prepare('SELECT total, submitted FROM queue_counts WHERE study_id = ? AND user_id = ?').get(studyId, who.id);
  const real = getDb()
    .$client.prepare(`SELECT count(*) AS total, sum(state = 'submitted') AS submitted FROM assignments WHERE study_id = ? AND user_id = ?`)
    .get(studyId, who.id);
  expect(kept).toEqual(real);
}

const verify = (who: Actor, assignmentId: number) =>
  submitFlowReview(who, { assignmentId, requestId: rid(), activeMs: 0, decision: { decision: 'verify' } });

function judgeAll(who: Actor, assignmentId: number, choice: 'r1' | 'tie' | 'r2') {
  const a = getJudgeAssignment(who, assignmentId);
  return submitJudgment(who, {
    assignmentId,
    requestId: rid(),
    activeMs: 0,
    choices: Object.fromEntries(a.criteria.map((c) => [c.id, choice])),
  });
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [a1, a2, adj, stranger] = await Promise.all(['a1', 'a2', 'adj', 'stranger'].map((u) => makeUser(u)));
  flowStudy = createStudy(lead, { kind: 'flow_review', name: 'Flows', reviewersPerItem: 1, seed: 5 }).id;
  importItems(lead, flowStudy, path.join(SEED, 'flows.jsonl'), 'concord');
  setStudyMembers(lead, flowStudy, { usernames: ['a1'] });
  openStudy(lead, flowStudy);
  pairStudy = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 9 }).id;
  importItems(lead, pairStudy, path.join(SEED, 'pairwise.jsonl'), 'concord');
  setStudyMembers(lead, pairStudy, { usernames: ['a1', 'a2'], adjudicator: 'adj' });
  openStudy(lead, pairStudy);
});

describe('skip', () => {
  it('puts the current item at the end of the queue, once however often the same skip is sent', () => {
    const before = getQueue(a1, flowStudy);
    const first = before.currentId!;
    const a = getFlowAssignment(a1, first);
    expect(skipAssignment(a1, { assignmentId: first, queuePosition: a.queuePosition, activeMs: 0 })).toEqual({
      assignmentId: first,
      studyId: flowStudy,
      skipped: true,
    });
    // A retry or a double press names the position it saw: the item is no longer there, nothing moves again.
    expect(skipAssignment(a1, { assignmentId: first, queuePosition: a.queuePosition, activeMs: 0 }).skipped).toBe(false);
    const after = getQueue(a1, flowStudy);
    expect(after.currentId).toBe(before.nextId);
    expect(after.total).toBe(before.total);
    expect(after.submitted).toBe(before.submitted);
    const pendingOrder = getDb()
      .$client.prepare(`SELECT id FROM assignments WHERE study_id = ? AND user_id = ? AND state = 'pending' ORDER BY queue_position`)
      .pluck()
      .all(flowStudy, a1.id) as number[];
    expect(pendingOrder.at(-1)).toBe(first);
    expect(pendingOrder).toHaveLength(before.total - before.submitted);
    countsAgree(flowStudy, a1);
  });

  it('brings the skipped item back after the others, and undo still takes back the last submission', () => {
    const q0 = getQueue(a1, flowStudy);
    const skipped = getDb()
      .$client.prepare(
        `SELECT id FROM assignments WHERE study_id = ? AND user_id = ? AND state = 'pending' ORDER BY queue_position DESC LIMIT 1`,
      )
      .pluck()
      .get(flowStudy, a1.id) as number;
    const seen: number[] = [];
    let q = q0;
    while (q.currentId !== null && q.currentId !== skipped) {
      seen.push(q.currentId);
      verify(a1, q.currentId);
      q = getQueue(a1, flowStudy);
    }
    expect(q.currentId).toBe(skipped);
    expect(seen).toHaveLength(q0.total - q0.submitted - 1);
    // Undo takes back the last one submitted, which comes first again, before the skipped item.
    const { assignmentId } = undoLastSubmission(a1, { studyId: flowStudy });
    expect(assignmentId).toBe(seen.at(-1));
    expect(getQueue(a1, flowStudy).currentId).toBe(assignmentId);
    verify(a1, assignmentId);
    expect(getQueue(a1, flowStudy).currentId).toBe(skipped);
    countsAgree(flowStudy, a1);
  });

  it('refuses a submitted item, another reviewer’s item and bad input', () => {
    const done = getDb()
      .$client.prepare(`SELECT id, queue_position AS p FROM assignments WHERE study_id = ? AND user_id = ? AND state = 'submitted' LIMIT 1`)
      .get(flowStudy, a1.id) as { id: number; p: number };
    expect(codeOf(() => skipAssignment(a1, { assignmentId: done.id, queuePosition: done.p, activeMs: 0 }))).toBe('conflict');
    expect(codeOf(() => skipAssignment(stranger, { assignmentId: done.id, queuePosition: done.p, activeMs: 0 }))).toBe('not_found');
    expect(codeOf(() => skipAssignment(a1, { assignmentId: done.id }))).toBe('invalid');
  });
});

describe('flag and comment', () => {
  it('stores a flag with its reason and a comment, idempotently, and shows the flag to leads only', () => {
    const id = getQueue(a2, pairStudy).currentId!;
    const first = setFlag(a2, { assignmentId: id, reason: '  Response 2 is cut off mid-sentence. ' });
    expect(first).toEqual({ flagReason: 'Response 2 is cut off mid-sentence.', comment: null });
    const flaggedAt = count('SELECT flagged_at FROM assignment_remarks WHERE assignment_id = ?', id);
    const audits = count(`SELECT count(*) FROM audit_log WHERE action = 'item_flagged' AND object_id = ?`, id);
    // The same flag again (a double click): nothing changes, not even the time it was flagged.
    expect(setFlag(a2, { assignmentId: id, reason: 'Response 2 is cut off mid-sentence.' })).toEqual(first);
    expect(count('SELECT flagged_at FROM assignment_remarks WHERE assignment_id = ?', id)).toBe(flaggedAt);
    expect(count(`SELECT count(*) FROM audit_log WHERE action = 'item_flagged' AND object_id = ?`, id)).toBe(audits);
    expect(setComment(a2, { assignmentId: id, comment: 'Checked the arithmetic twice.' })).toEqual({
      ...first,
      comment: 'Checked the arithmetic twice.',
    });
    expect(getJudgeAssignment(a2, id).remarks).toEqual({ flagReason: first.flagReason, comment: 'Checked the arithmetic twice.' });

    const flagged = getFlaggedItems(lead, pairStudy);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({
      assignmentId: id,
      reviewer: 'A2',
      reason: first.flagReason,
      comment: 'Checked the arithmetic twice.',
      submitted: false,
    });
    expect(codeOf(() => getFlaggedItems(a2, pairStudy))).toBe('forbidden');
    expect(codeOf(() => setFlag(a1, { assignmentId: id, reason: 'x' }))).toBe('not_found');
  });

  it('refuses an empty reason with a message naming the field, and clears flag and comment', () => {
    const id = getQueue(a2, pairStudy).currentId!;
    try {
      setFlag(a2, { assignmentId: id, reason: '   ' });
      expect.unreachable();
    } catch (e) {
      expect((e as { fieldErrors: Record<string, string> }).fieldErrors.reason).toMatch(/why/);
    }
    expect(setFlag(a2, { assignmentId: id, reason: null }).flagReason).toBeNull();
    expect(getFlaggedItems(lead, pairStudy)).toHaveLength(0);
    expect(setComment(a2, { assignmentId: id, comment: '' })).toEqual({ flagReason: null, comment: null });
    expect(count('SELECT count(*) FROM assignment_remarks WHERE assignment_id = ?', id)).toBe(0);
  });
});

describe('history and revising', () => {
  it('lists my submissions newest first, searchable by item number and problem text, never by source', () => {
    const order: number[] = [];
    for (let q = getQueue(a1, pairStudy); q.currentId !== null; q = getQueue(a1, pairStudy)) {
      judgeAll(a1, q.currentId, 'tie');
      order.push(q.currentId);
    }
    const h = getSubmissionHistory(a1, { studyId: pairStudy });
    expect(h.total).toBe(order.length);
    expect(h.items.map((i) => i.assignmentId)).toEqual([...order].reverse());
    const one = h.items[1];
    const byNumber = getSubmissionHistory(a1, { studyId: pairStudy, search: String(one.position) });
    expect(byNumber.items.map((i) => i.assignmentId)).toContain(one.assignmentId);
    const word = one.problem!.split(/\s+/).find((w) => w.length > 5)!;
    expect(getSubmissionHistory(a1, { studyId: pairStudy, search: word }).items.map((i) => i.assignmentId)).toContain(one.assignmentId);
    // Sources are in the items' payloads; searching for one must find nothing.
    expect(getSubmissionHistory(a1, { studyId: pairStudy, search: 'model-x' }).total).toBe(0);
    expect(getSubmissionHistory(a1, { studyId: pairStudy, search: '%' }).total).toBe(0);
    // Nobody else's submissions, and nothing for a stranger.
    expect(getSubmissionHistory(a2, { studyId: pairStudy }).total).toBe(0);
    expect(codeOf(() => getSubmissionHistory(stranger, { studyId: pairStudy }))).toBe('not_found');
  });

  it('revises a submission as a new revision with the old labels as the draft, first in the queue', () => {
    const h = getSubmissionHistory(a1, { studyId: pairStudy });
    const oldest = h.items.at(-1)!;
    expect(reviseSubmission(a1, { assignmentId: oldest.assignmentId })).toEqual({ assignmentId: oldest.assignmentId, studyId: pairStudy });
    // Sent twice (a double click): still one item under revision, first in the queue, and it still counts.
    reviseSubmission(a1, { assignmentId: oldest.assignmentId });
    const q = getQueue(a1, pairStudy);
    expect(q.currentId).toBe(oldest.assignmentId);
    expect(q.submitted).toBe(h.total);
    const view = getJudgeAssignment(a1, oldest.assignmentId);
    expect(Object.values(view.draft!.choices).every((c) => c === 'tie')).toBe(true);
    const { revision } = judgeAll(a1, oldest.assignmentId, 'r1');
    expect(revision).toBe(2);
    expect(getSubmissionHistory(a1, { studyId: pairStudy }).items[0]).toMatchObject({ assignmentId: oldest.assignmentId, revision: 2 });
    countsAgree(pairStudy, a1);
  });

  it('refuses to revise an adjudicated item (the rule undo follows)', () => {
    // a2 judges the items differently, so each one is disputed; the adjudicator rules on one.
    for (let q = getQueue(a2, pairStudy); q.currentId !== null; q = getQueue(a2, pairStudy)) judgeAll(a2, q.currentId, 'r2');
    // items[1] is still a1's first judgment, all ties: against a2's choices every criterion is disputed.
    const item = getJudgeAssignment(a1, getSubmissionHistory(a1, { studyId: pairStudy }).items[1].assignmentId);
    const ai = getAdjudicationItem(adj, pairStudy, item.itemId);
    submitAdjudication(adj, {
      studyId: pairStudy,
      itemId: item.itemId,
      requestId: rid(),
      choices: Object.fromEntries(ai.criteria.filter((c) => !c.agreed).map((c) => [c.id, 'tie'])),
    });
    expect(codeOf(() => reviseSubmission(a1, { assignmentId: item.assignmentId }))).toBe('conflict');
    // Opened from the history, it shows the labels and says it is settled; another item still says editable.
    const settled = getMySubmission(a1, item.assignmentId);
    expect(settled.editable).toBe(false);
    expect(settled.view.kind === 'pairwise' && Object.values(settled.view.submitted!).every((c) => c === 'tie')).toBe(true);
    const other = getSubmissionHistory(a1, { studyId: pairStudy }).items.find((i) => i.assignmentId !== item.assignmentId)!;
    expect(getMySubmission(a1, other.assignmentId).editable).toBe(true);
    expect(codeOf(() => getMySubmission(a2, item.assignmentId))).toBe('not_found');
  });
});
