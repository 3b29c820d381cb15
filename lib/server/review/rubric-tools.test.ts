import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '@/test/errors';
import { rowIdOf } from '@/test/item-refs';
import { makeUser, useTestDatabase } from '@/test/db';
import { createRubricStudy, mrbenchItems } from '@/test/rubric-fixtures-rscreen';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { Actor } from '../actor';
import { getRubricItem } from '../studies/item-dimensions';
import { listRubricItems } from '../studies/items';
import { getAdjudicationQueue, submitRubricAdjudication } from './adjudication';
import { getMySubmission, getQueue, reviseSubmission } from './flow-review';
import { getFlaggedItems, getSubmissionHistory, setComment, setFlag, skipAssignment } from './item-actions';
import { getRubricAssignment, submitRubric } from './rubric';

/*
 * Skip, flag, comment and the history on rubric studies: the tools every kind shares, checked on rubric replies
 * grouped by dialogue, and what leads see of them on the rubric items list and item page.
 */

useTestDatabase();
const DIMS = MRBENCH_V3_CATALOG.map((d) => d.id);
let n = 0;
const rid = () => `rt-${String(++n).padStart(6, '0')}`;
/** Labels by dimension, in catalog order: Y = Yes, N = No, T = To some extent. */
const L = (letters: string) => {
  const name: Record<string, string> = { Y: 'Yes', N: 'No', T: 'To some extent' };
  return Object.fromEntries([...letters].map((c, k) => [DIMS[k], name[c]]));
};

let lead: Actor, r1: Actor, r2: Actor, adj: Actor;
let studyId: number;
// Two dialogues, three tutors' replies each.
const items = mrbenchItems(2, ['Sonnet', 'GPT4', 'Expert']);

const current = (who: Actor, study = studyId) => getRubricAssignment(who, getQueue(who, study).currentId!);
function label(who: Actor, letters: string, study = studyId) {
  const a = current(who, study);
  submitRubric(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 100, labels: L(letters) });
  return a;
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [r1, r2, adj] = await Promise.all(['rone', 'rtwo', 'adj'].map((u) => makeUser(u)));
  studyId = createRubricStudy(lead, { name: 'Rubric tools', items, reviewers: ['rone', 'rtwo'], adjudicator: 'adj' });
});

describe('skip on a rubric study', () => {
  it('sends one reply to the end of the queue, leaves its dialogue’s other replies in place, and shows the dialogue again when it comes back', () => {
    const first = current(r1);
    expect(first.group).toMatchObject({ index: 1, count: 3 });
    const dialogue = first.history;
    const before = getQueue(r1, studyId);
    expect(skipAssignment(r1, { assignmentId: first.assignmentId, queuePosition: first.queuePosition, activeMs: 0 }).skipped).toBe(true);
    // A retry with the position the screen saw moves nothing again.
    expect(skipAssignment(r1, { assignmentId: first.assignmentId, queuePosition: first.queuePosition, activeMs: 0 }).skipped).toBe(false);
    const after = getQueue(r1, studyId);
    expect(after.upcomingIds.at(-1)).toBe(first.assignmentId);
    expect(after.currentId).toBe(before.upcomingIds[0]);
    // The next reply is of the same dialogue and now opens it; the skipped one counts as its last reply.
    const next = current(r1);
    expect(next.history).toEqual(dialogue);
    expect(next.group).toMatchObject({ index: 1, count: 3, anchor: next.assignmentId });
    expect(getRubricAssignment(r1, first.assignmentId).group).toMatchObject({ index: 3, count: 3 });
    // Label the five others: the skipped reply comes back last, with its dialogue.
    for (let i = 0; i < 5; i++) label(r1, 'YYYY');
    const back = current(r1);
    expect(back.assignmentId).toBe(first.assignmentId);
    expect(back.history).toEqual(dialogue);
    expect(getQueue(r1, studyId).upcomingIds).toEqual([]);
    // Nothing left to skip to; the last item stays where it is.
    label(r1, 'YYYN');
    expect(getQueue(r1, studyId).currentId).toBeNull();
  });
});

describe('flags and comments on rubric replies', () => {
  it('keeps them per reviewer, shows them to leads on the item page and in the flagged filter, never to the other reviewer', () => {
    // r2 flags their first reply and comments on their second; r1 flagged nothing.
    const a = current(r2);
    expect(setFlag(r2, { assignmentId: a.assignmentId, reason: 'The reply is cut off' })).toEqual({
      flagReason: 'The reply is cut off',
      comment: null,
    });
    label(r2, 'YYYY');
    const b = current(r2);
    setComment(r2, { assignmentId: b.assignmentId, comment: 'Unsure about the location' });
    expect(getRubricAssignment(r2, b.assignmentId).remarks).toEqual({ flagReason: null, comment: 'Unsure about the location' });

    // The other reviewer's view of the same items carries nothing of r2's remarks.
    for (const itemId of [a.itemId, b.itemId]) {
      const mine = getQueue(r1, studyId);
      expect(mine.currentId).toBeNull();
      const history = getSubmissionHistory(r1, { studyId }).items;
      const view = history.map((h) => getRubricAssignment(r1, h.assignmentId)).find((v) => v.itemId === itemId)!;
      expect(view.remarks).toEqual({ flagReason: null, comment: null });
      expect(JSON.stringify(view)).not.toContain('cut off');
      expect(JSON.stringify(view)).not.toContain('Unsure');
      expect(JSON.stringify(getMySubmission(r1, view.assignmentId))).not.toMatch(/cut off|Unsure/);
    }

    // Leads: the item page names who flagged and why; the comment beside the other reviewer. They go by row ids.
    const [itemA, itemB] = [rowIdOf(studyId, a.itemId), rowIdOf(studyId, b.itemId)];
    const page = getRubricItem(lead, studyId, itemA);
    const flagger = page.reviewers.find((r) => r.username === 'rtwo')!;
    expect(flagger.remarks.flagReason).toBe('The reply is cut off');
    expect(flagger.remarks.flaggedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.reviewers.find((r) => r.username === 'rone')!.remarks).toEqual({ flagReason: null, flaggedAt: null, comment: null });
    expect(getRubricItem(lead, studyId, itemB).reviewers.find((r) => r.username === 'rtwo')!.remarks).toEqual({
      flagReason: null,
      flaggedAt: null,
      comment: 'Unsure about the location',
    });
    // The adjudicator is no lead: the item page is not theirs.
    expect(codeOf(() => getRubricItem(r2, studyId, itemA))).toBe('forbidden');

    // The flagged filter lists the flagged item only, and combines with the other filters.
    const all = listRubricItems(lead, studyId, {});
    const flagged = listRubricItems(lead, studyId, { flagged: '1' });
    expect(all.total).toBe(items.length);
    expect(flagged.rows.map((r) => r.itemId)).toEqual([itemA]);
    expect(flagged.total).toBe(1);
    expect(listRubricItems(lead, studyId, { flagged: '' }).total).toBe(items.length);
    expect(listRubricItems(lead, studyId, { flagged: '1', state: 'waiting' }).rows.map((r) => r.itemId)).toEqual(
      all.rows.filter((r) => r.state === 'waiting' && r.itemId === itemA).map((r) => r.itemId),
    );
    expect(() => listRubricItems(lead, studyId, { flagged: 'maybe' })).toThrow(/flagged/);
    expect(getFlaggedItems(lead, studyId).map((f) => [f.itemId, f.reviewer, f.reason])).toEqual([[itemA, 'RTWO', 'The reply is cut off']]);

    // A cleared flag leaves the filter.
    setFlag(r2, { assignmentId: a.assignmentId, reason: null });
    expect(listRubricItems(lead, studyId, { flagged: '1' }).total).toBe(0);
    setFlag(r2, { assignmentId: a.assignmentId, reason: 'The reply is cut off' });
  });
});

describe('the history of rubric submissions', () => {
  it('lists them newest first, shows each with its labels and note, and Revise brings the labels back as the draft', () => {
    const h = getSubmissionHistory(r1, { studyId });
    expect(h.kind).toBe('rubric');
    expect(h.total).toBe(items.length);
    const times = h.items.map((i) => i.submittedAt);
    expect([...times].sort().reverse()).toEqual(times);
    // The newest one is the skipped reply, labelled YYYN.
    const newest = h.items[0];
    const mine = getMySubmission(r1, newest.assignmentId);
    expect(mine.editable).toBe(true);
    expect(mine.view.kind).toBe('rubric');
    if (mine.view.kind !== 'rubric') return;
    expect(mine.view.submitted?.labels).toEqual(L('YYYN'));
    expect(mine.view.dimensions.map((d) => d.id)).toEqual(DIMS);
    expect(JSON.stringify(mine)).not.toMatch(/Sonnet|GPT4|Expert/);

    // Revise: first in the queue, the labels as the draft, still submitted and counted until revision 2 is submitted.
    expect(reviseSubmission(r1, { assignmentId: newest.assignmentId })).toEqual({ assignmentId: newest.assignmentId, studyId });
    const q = getQueue(r1, studyId);
    expect(q.currentId).toBe(newest.assignmentId);
    expect(q.submitted).toBe(items.length);
    const reopened = getRubricAssignment(r1, newest.assignmentId);
    expect(reopened.state).toBe('submitted');
    expect(reopened.draft?.labels).toEqual(L('YYYN'));
    // A double click on Revise changes nothing more.
    reviseSubmission(r1, { assignmentId: newest.assignmentId });
    expect(getQueue(r1, studyId).submitted).toBe(items.length);
    submitRubric(r1, { assignmentId: newest.assignmentId, requestId: rid(), activeMs: 10, labels: L('YYYY') });
    const again = getMySubmission(r1, newest.assignmentId);
    expect(again.revision).toBe(2);
    expect(again.view).toMatchObject({ kind: 'rubric', submitted: { labels: L('YYYY') } });
    expect(getSubmissionHistory(r1, { studyId }).items[0]).toMatchObject({ assignmentId: newest.assignmentId, revision: 2 });
  });

  it('an adjudicated rubric item can no longer be revised from the history', () => {
    const one = mrbenchItems(3, ['Expert']).slice(2);
    const small = createRubricStudy(lead, { name: 'Revise after ruling', items: one, reviewers: ['rone', 'rtwo'], adjudicator: 'adj' });
    const mine = label(r1, 'YYYY', small);
    label(r2, 'YYYN', small);
    const itemId = getAdjudicationQueue(adj, small).currentItemId!;
    submitRubricAdjudication(adj, { studyId: small, itemId, requestId: rid(), labels: { actionability: 'Yes' } });
    expect(getMySubmission(r1, mine.assignmentId).editable).toBe(false);
    expect(() => reviseSubmission(r1, { assignmentId: mine.assignmentId })).toThrow(/has been adjudicated/);
    expect(getQueue(r1, small).submitted).toBe(1);
  });
});
