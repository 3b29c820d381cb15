import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveDraft } from './draft';
import { getDb } from '@/db/client';
import { parseCsv } from '@/test/csv';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { exportFlows } from '../studies/exports';
import { flowReport } from '../studies/flow-report';
import { ImportRejected, importItems } from '../imports/imports';
import { getFlowAssignment, getQueue, submitFlowReview, undoLastSubmission } from './flow-review';
import { submitAndQueue } from './submit-and-queue';
import { createStudy, getStudy, openStudy, setStudyMembers } from '../studies/studies';

const { dir } = useTestDatabase();
afterAll(() => {
  vi.useRealTimers();
});
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const kmpLines = fs.readFileSync(KMP, 'utf8').trim().split('\n');

let lead: Actor, ann1: Actor, ann2: Actor, outsider: Actor;
let studyId: number;

const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;
const rid = (n: number) => `request-${String(n).padStart(4, '0')}`;
/** Lets wall-clock time pass (the clock is faked while reviewing: active time is credited only as time passes). */
const pass = (ms: number) => vi.setSystemTime(Date.now() + ms);
/** The reviewer opens an assignment and works on it for `ms`. */
const work = (who: Actor, assignmentId: number, ms: number) => {
  getFlowAssignment(who, assignmentId);
  pass(ms);
};

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann1 = await makeUser('ann1');
  ann2 = await makeUser('ann2');
  outsider = await makeUser('outsider');
  studyId = createStudy(lead, { kind: 'flow_review', name: 'KMP', payRate: '0.5', reviewersPerItem: 1, seed: 11 }).id;
});

describe('importing flows', () => {
  it('refuses a file with bad lines, names each line and field, and writes nothing', () => {
    const bad = [
      kmpLines[0],
      '{"id": "x", "problem": {"text": "p"}, "steps": [{"speaker": "teacher", "text": "hi"}]}',
      kmpLines[1],
      '{not json',
      kmpLines[2],
    ];
    const file = writeTemp(dir, 'bad.jsonl', bad.join('\n'));
    let caught: unknown;
    try {
      importItems(lead, studyId, file, 'concord');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ImportRejected);
    const errors = (caught as ImportRejected).errors;
    expect(errors.map((e) => e.line)).toEqual([2, 4]);
    expect(errors[0].path).toBe('steps[0].speaker');
    expect(count('SELECT count(*) FROM items')).toBe(0);
  });

  it('reports a duplicate id within the file with both lines', () => {
    const file = writeTemp(dir, 'dup.jsonl', [kmpLines[0], kmpLines[0]].join('\n'));
    expect(() => importItems(lead, studyId, file, 'concord')).toThrow(ImportRejected);
    try {
      importItems(lead, studyId, file, 'concord');
    } catch (e) {
      expect((e as ImportRejected).errors[0]).toMatchObject({ line: 2, path: 'id' });
      expect((e as ImportRejected).errors[0].message).toContain('first on line 1');
    }
  });

  it('imports a clean file; an identical re-import is a no-op', () => {
    expect(importItems(lead, studyId, KMP, 'concord')).toEqual({ records: 6, inserted: 6, unchanged: 0 });
    expect(importItems(lead, studyId, KMP, 'concord')).toEqual({ records: 6, inserted: 0, unchanged: 6 });
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(6);
  });

  it('refuses an existing id with different content', () => {
    const changed = JSON.parse(kmpLines[0]);
    changed.problem.text += ' (edited)';
    const file = writeTemp(dir, 'changed.jsonl', JSON.stringify(changed));
    expect(() => importItems(lead, studyId, file, 'concord')).toThrow(ImportRejected);
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(6);
  });

  it('lets only staff import', () => {
    expect(codeOf(() => importItems(ann1, studyId, KMP, 'concord'))).toBe('forbidden');
  });
});

describe('reviewing', () => {
  beforeAll(() => {
    setStudyMembers(lead, studyId, { usernames: ['ann1', 'ann2'] });
    openStudy(lead, studyId);
    // From here on the clock is faked, and stays so: submission times must keep moving forward.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  });

  it('makes one assignment per flow, balanced between the reviewers', () => {
    expect(count('SELECT count(*) FROM assignments WHERE study_id = ?', studyId)).toBe(6);
    expect(count('SELECT count(*) FROM assignments WHERE user_id = ?', ann1.id)).toBe(3);
    expect(getStudy(lead, studyId).status).toBe('open');
  });

  it('keeps other people out of a study and of assignments', () => {
    expect(codeOf(() => getQueue(outsider, studyId))).toBe('not_found');
    const mine = getQueue(ann1, studyId).currentId!;
    expect(codeOf(() => getFlowAssignment(ann2, mine))).toBe('not_found');
    expect(
      codeOf(() => submitFlowReview(ann2, { assignmentId: mine, requestId: rid(99), activeMs: 0, decision: { decision: 'verify' } })),
    ).toBe('not_found');
    expect(codeOf(() => flowReport(ann1, studyId))).toBe('forbidden');
  });

  it('saves drafts and returns them', () => {
    const q = getQueue(ann1, studyId);
    work(ann1, q.currentId!, 5000);
    saveDraft(ann1, { assignmentId: q.currentId, draft: { decision: 'discard', reasons: ['off_topic'], focus: 2 }, activeMs: 4000 });
    const a = getFlowAssignment(ann1, q.currentId!);
    expect(a.draft).toMatchObject({ decision: 'discard', reasons: ['off_topic'], focus: 2 });
    expect(a.activeMs).toBe(4000);
  });

  it('validates decisions against the flow', () => {
    const a = getFlowAssignment(ann1, getQueue(ann1, studyId).currentId!);
    const steps = a.flow.steps.length;
    const submit = (decision: unknown) =>
      codeOf(() => submitFlowReview(ann1, { assignmentId: a.assignmentId, requestId: rid(1), activeMs: 0, decision }));
    expect(submit({ decision: 'truncate', afterStep: steps })).toBe('invalid');
    expect(submit({ decision: 'discard', reasons: [] })).toBe('invalid');
    expect(submit({ decision: 'discard', reasons: ['other'] })).toBe('invalid');
    expect(count('SELECT count(*) FROM annotations')).toBe(0);
  });

  it('writes a submission once, however often it is sent', () => {
    const first = getQueue(ann1, studyId);
    const input = { assignmentId: first.currentId!, requestId: rid(2), activeMs: 9000, decision: { decision: 'verify', note: 'fine' } };
    pass(10_000);
    expect(submitFlowReview(ann1, input)).toMatchObject({ duplicate: false, revision: 1 });
    expect(submitFlowReview(ann1, input)).toMatchObject({ duplicate: true, revision: 1 });
    expect(codeOf(() => submitFlowReview(ann1, { ...input, requestId: rid(3) }))).toBe('conflict');
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', input.assignmentId)).toBe(1);
    const after = getQueue(ann1, studyId);
    expect(after.submitted).toBe(1);
    expect(after.currentId).toBe(first.nextId);
    // What the screen shows ahead of the server's answer: the queue moved up by one, the same count plus one.
    expect([after.currentId, ...after.upcomingIds]).toEqual(first.upcomingIds);
    expect(after.total).toBe(first.total);
    expect(after.undoableId).toBe(input.assignmentId);
  });

  it('undoes the last submission into a draft and keeps the history', () => {
    const before = getQueue(ann1, studyId);
    const { assignmentId } = undoLastSubmission(ann1, { studyId });
    const a = getFlowAssignment(ann1, assignmentId);
    expect(a.state).toBe('pending');
    expect(a.draft).toMatchObject({ decision: 'verify', note: 'fine' });
    expect(getQueue(ann1, studyId)).toMatchObject({ submitted: before.submitted - 1, currentId: assignmentId });
    pass(2000);
    submitFlowReview(ann1, { assignmentId, requestId: rid(4), activeMs: 10000, decision: { decision: 'truncate', afterStep: 2 } });
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(2);
    expect(flowReport(lead, studyId)).toMatchObject({ submitted: 1, verified: 0, truncated: 1 });
  });

  it('reports and exports what was decided', async () => {
    // ann1 discards the next flow; ann2 verifies their first one.
    const q1 = getQueue(ann1, studyId);
    work(ann1, q1.currentId!, 25_000);
    submitFlowReview(ann1, {
      assignmentId: q1.currentId!,
      requestId: rid(5),
      activeMs: 20000,
      decision: { decision: 'discard', reasons: ['hallucinated_material', 'other'], note: 'M5 does not exist' },
    });
    const q2 = getQueue(ann2, studyId);
    work(ann2, q2.currentId!, 35_000);
    submitFlowReview(ann2, { assignmentId: q2.currentId!, requestId: rid(6), activeMs: 30000, decision: { decision: 'verify' } });

    const report = flowReport(lead, studyId);
    expect(report).toMatchObject({ items: 6, assigned: 6, submitted: 3, verified: 1, truncated: 1, discarded: 1 });
    expect(report.discardReasons).toEqual({ hallucinated_material: 1, other: 1 });
    const r1 = report.reviewers.find((r) => r.username === 'ann1')!;
    expect(r1).toMatchObject({ assigned: 3, submitted: 2, activeSeconds: 30, payout: 1 });
    expect(r1.itemsPerHour).toBe(240);

    const flows = [...exportFlows(lead, studyId, 'flows', 'jsonl').lines].map((l) => JSON.parse(l));
    expect(flows).toHaveLength(2);
    const truncated = flows.find((f) => f.review.decision === 'truncate');
    expect(truncated.steps).toHaveLength(2);
    expect(truncated.review).toMatchObject({ afterStep: 2, reviewers: ['ann1'] });

    const csv = [...exportFlows(lead, studyId, 'decisions', 'csv').lines].join('');
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(['item', 'reviewer', 'decision', 'after_step', 'reasons', 'note', 'active_seconds', 'submitted_at']);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r[4])).toContain('hallucinated_material;other');
    expect(codeOf(() => exportFlows(ann1, studyId, 'flows', 'jsonl'))).toBe('forbidden');
  });
});

describe('submitting through the JSON route', () => {
  it('answers with the queue as it now stands, also for a repeated request', () => {
    const before = getQueue(ann2, studyId);
    const input = { assignmentId: before.currentId!, requestId: rid(50), activeMs: 1000, decision: { decision: 'verify' } };
    const first = submitAndQueue(ann2, input);
    expect(first).toMatchObject({ assignmentId: input.assignmentId, duplicate: false, revision: 1 });
    expect(first.queue).toEqual(getQueue(ann2, studyId));
    expect(first.queue).toMatchObject({ submitted: before.submitted + 1, currentId: before.nextId, undoableId: input.assignmentId });
    expect(submitAndQueue(ann2, input)).toEqual({ ...first, duplicate: true });
    expect(codeOf(() => submitAndQueue(ann1, input))).toBe('not_found');
  });
});
