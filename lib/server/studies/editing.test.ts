import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { getQueue, submitFlowReview, undoLastSubmission } from '../review/flow-review';
import { addReviewer, editStudy, guidelineVersions, replaceReviewer, setArchived, setDeadline } from './editing';
import { closeStudy, createStudy, getStudy, listMyStudies, listStudiesView, openStudy, setStudyMembers } from './studies';

/* Editing a study after it opened: name and versioned guidelines, deadline, reviewers added or replaced, archiving. */

useTestDatabase();
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

let lead: Actor, ann1: Actor, ann3: Actor, adj: Actor;
const db = () => getDb().$client;
const audits = (studyId: number, action: string) =>
  db().prepare('SELECT detail FROM audit_log WHERE study_id = ? AND action = ? ORDER BY id').pluck().all(studyId, action) as string[];
/** Each user's pending/submitted assignments in the study, from the rows and from the trigger-kept counts. */
const counts = (studyId: number, userId: number) => ({
  rows: db()
    .prepare(
      `SELECT coalesce(sum(state = 'pending'), 0) AS pending, coalesce(sum(state = 'submitted'), 0) AS submitted FROM assignments WHERE study_id = ? AND user_id = ?`,
    )
    .get(studyId, userId),
  kept: db().prepare('SELECT total, submitted FROM queue_counts WHERE study_id = ? AND user_id = ?').get(studyId, userId) ?? {
    total: 0,
    submitted: 0,
  },
});

function openFlowStudy(name: string, reviewers: string[], perItem = 1) {
  const id = createStudy(lead, { kind: 'flow_review', name, guidelines: 'Version one.', reviewersPerItem: perItem, seed: 7 }).id;
  importItems(lead, id, KMP, 'concord');
  setStudyMembers(lead, id, { usernames: reviewers });
  openStudy(lead, id);
  return id;
}

let request = 0;
function submitNext(who: Actor, studyId: number) {
  const q = getQueue(who, studyId);
  return submitFlowReview(who, {
    assignmentId: q.currentId,
    requestId: `edit-request-${String(++request).padStart(4, '0')}`,
    activeMs: 0,
    decision: { decision: 'verify' },
  });
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann1 = await makeUser('ann1');
  await makeUser('ann2');
  ann3 = await makeUser('ann3');
  adj = await makeUser('adj');
});

describe('name and guidelines', () => {
  it('renames and keeps every version of the guidelines; reviewers see the newest', () => {
    const id = openFlowStudy('Guided', ['ann1']);
    expect(getStudy(lead, id).guidelinesVersion).toBe(1);
    expect(editStudy(lead, id, { name: 'Guided, v2', guidelines: 'Version two: check the arithmetic.' })).toEqual({
      name: 'Guided, v2',
      guidelinesVersion: 2,
    });
    expect(getQueue(ann1, id).guidelines).toBe('Version two: check the arithmetic.');
    expect(getQueue(ann1, id).studyName).toBe('Guided, v2');
    expect(listMyStudies(ann1).find((s) => s.id === id)?.guidelinesVersion).toBe(2);
    const versions = guidelineVersions(lead, id);
    expect(versions.map((v) => [v.version, v.guidelines, v.author])).toEqual([
      [2, 'Version two: check the arithmetic.', 'lead'],
      [1, 'Version one.', 'lead'],
    ]);
    // The same text again is no new version, and an unchanged edit writes no audit entry.
    expect(editStudy(lead, id, { guidelines: 'Version two: check the arithmetic.' }).guidelinesVersion).toBe(2);
    const edits = audits(id, 'study_edited').map((d) => JSON.parse(d));
    expect(edits).toEqual([{ name: { from: 'Guided', to: 'Guided, v2' }, guidelinesVersion: 2 }]);
  });

  it('refuses bad input by field, an annotator, and a closed study, changing nothing', () => {
    const id = openFlowStudy('Strict', ['ann1']);
    expect(codeOf(() => editStudy(lead, id, { name: '   ' }))).toBe('invalid');
    expect(codeOf(() => editStudy(lead, id, {}))).toBe('invalid');
    expect(codeOf(() => editStudy(ann1, id, { name: 'Mine now' }))).toBe('forbidden');
    closeStudy(lead, id);
    expect(codeOf(() => editStudy(lead, id, { name: 'Too late' }))).toBe('conflict');
    expect(getStudy(lead, id).name).toBe('Strict');
    expect(audits(id, 'study_edited')).toEqual([]);
  });
});

describe('deadline', () => {
  it('adds a deadline where there was none, then extends it; both audited', () => {
    const id = openFlowStudy('Due', ['ann1']);
    expect(getStudy(lead, id).deadline).toBeNull();
    setDeadline(lead, id, { deadline: '2030-01-31' });
    expect(getStudy(lead, id).deadline).toBe('2030-01-31T23:59:59.999Z');
    setDeadline(lead, id, { deadline: '2030-02-28' });
    expect(listMyStudies(ann1).find((s) => s.id === id)?.deadline).toBe('2030-02-28T23:59:59.999Z');
    expect(audits(id, 'study_deadline_set').map((d) => JSON.parse(d))).toEqual([
      { from: null, to: '2030-01-31T23:59:59.999Z' },
      { from: '2030-01-31T23:59:59.999Z', to: '2030-02-28T23:59:59.999Z' },
    ]);
    expect(codeOf(() => setDeadline(lead, id, { deadline: '2030-02-30' }))).toBe('invalid');
    expect(codeOf(() => setDeadline(lead, id, { deadline: 'soon' }))).toBe('invalid');
  });
});

describe('replacing a reviewer who left', () => {
  it('moves their untouched pending work to the new person; submitted and undone work stays theirs', () => {
    const id = openFlowStudy('Handover', ['ann1', 'ann2']);
    const before = counts(id, ann1.id).rows as { pending: number; submitted: number };
    expect(before.pending).toBeGreaterThanOrEqual(3);
    submitNext(ann1, id);
    submitNext(ann1, id);
    // An item submitted and then undone is pending again but holds ann1's revision: it stays with ann1.
    undoLastSubmission(ann1, { studyId: id });
    const pendingUntouched = before.pending - 2;

    const result = replaceReviewer(lead, id, { from: 'ann1', to: 'ann3' });
    expect(result).toEqual({ from: 'ann1', to: 'ann3', moved: pendingUntouched, keptWithEarlierRevisions: 1 });
    expect(counts(id, ann1.id).rows).toEqual({ pending: 1, submitted: 1 });
    expect(counts(id, ann1.id).kept).toEqual({ total: 2, submitted: 1 });
    expect(counts(id, ann3.id).rows).toEqual({ pending: pendingUntouched, submitted: 0 });
    expect(counts(id, ann3.id).kept).toEqual({ total: pendingUntouched, submitted: 0 });
    // The new reviewer works the moved items; every item still has exactly the planned number of reviewers.
    expect(getQueue(ann3, id).total).toBe(pendingUntouched);
    submitNext(ann3, id);
    expect(
      db()
        .prepare('SELECT count(*) FROM (SELECT item_id FROM assignments WHERE study_id = ? GROUP BY item_id HAVING count(*) != 1)')
        .pluck()
        .get(id),
    ).toBe(0);
    expect(getStudy(lead, id).members.map((m) => m.username)).toEqual(['ann1', 'ann2', 'ann3']);
    expect(JSON.parse(audits(id, 'study_reviewer_replaced')[0])).toMatchObject({ from: 'ann1', to: 'ann3', moved: pendingUntouched });
  });

  it('refuses a replacement who already reviews one of the items, and moves nothing', () => {
    // Two reviewers per item: ann2 already has every item ann1 has.
    const id = openFlowStudy('Overlap', ['ann1', 'ann2'], 2);
    const before = counts(id, ann1.id).kept;
    expect(codeOf(() => replaceReviewer(lead, id, { from: 'ann1', to: 'ann2' }))).toBe('conflict');
    expect(counts(id, ann1.id).kept).toEqual(before);
    expect(codeOf(() => replaceReviewer(lead, id, { from: 'ann1', to: 'ann1' }))).toBe('invalid');
    expect(codeOf(() => replaceReviewer(lead, id, { from: 'ann3', to: 'ann1' }))).toBe('invalid');
    expect(codeOf(() => replaceReviewer(lead, id, { from: 'ann1', to: 'nobody' }))).toBe('invalid');
    expect(audits(id, 'study_reviewer_replaced')).toEqual([]);
  });

  it('adds a reviewer to an open study, once, never the adjudicator', () => {
    const id = openFlowStudy('Grow', ['ann1']);
    addReviewer(lead, id, { username: 'ann2' });
    expect(getStudy(lead, id).members.map((m) => m.username)).toEqual(['ann1', 'ann2']);
    expect(codeOf(() => addReviewer(lead, id, { username: 'ann2' }))).toBe('conflict');
    expect(audits(id, 'study_reviewer_added')).toHaveLength(1);
    void adj;
  });
});

describe('the studies list', () => {
  it('shows progress, searches, filters by kind, sorts, and hides archived studies unless asked', () => {
    const a = openFlowStudy('Zebra list study', ['ann1']);
    const b = openFlowStudy('Alpha list study', ['ann1']);
    submitNext(ann1, b);
    const rows = listStudiesView(lead, { q: 'list study' });
    expect(rows.map((r) => r.id)).toEqual([b, a]);
    const rowB = rows.find((r) => r.id === b)!;
    expect(rowB).toMatchObject({ kind: 'flow_review', status: 'open', submitted: 1, reviewers: ['ann1'], archived: false });
    expect(rowB.assigned).toBe(rowB.items);
    expect(listStudiesView(lead, { q: 'list study', sort: 'name' }).map((r) => r.name)).toEqual(['Alpha list study', 'Zebra list study']);
    expect(listStudiesView(lead, { q: 'list study', sort: 'progress' })[0].id).toBe(b);
    expect(listStudiesView(lead, { q: 'list study', kind: 'pairwise' })).toEqual([]);
    expect(listStudiesView(lead, { q: String(a) }).map((r) => r.id)).toContain(a);

    expect(codeOf(() => setArchived(lead, a, true))).toBe('conflict');
    closeStudy(lead, a);
    setArchived(lead, a, true);
    expect(listStudiesView(lead, { q: 'list study' }).map((r) => r.id)).toEqual([b]);
    expect(listStudiesView(lead, { q: 'list study', status: 'archived' }).map((r) => r.id)).toEqual([a]);
    setArchived(lead, a, false);
    expect(listStudiesView(lead, { q: 'list study', status: 'closed' }).map((r) => r.id)).toEqual([a]);
    expect(audits(a, 'study_archived')).toHaveLength(1);
    expect(audits(a, 'study_unarchived')).toHaveLength(1);
    expect(codeOf(() => listStudiesView(ann1, {}))).toBe('forbidden');
  });
});
