import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { saveDraft } from '../review/draft';
import { getFlowAssignment, getQueue } from '../review/flow-review';
import { editStudy } from './editing';
import { createStudy, listMyStudies, openStudy, setStudyMembers } from './studies';

// Issue 26, point 8: ann4 was told "Guidelines updated (version 2)" without ever having seen version 1. Only a
// reviewer who worked on an item (a draft saved or a submission) before the newest version was written is told.

useTestDatabase();
afterAll(() => {
  vi.useRealTimers();
});
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

let lead: Actor, early: Actor, late: Actor;
let studyId: number;
const updated = (who: Actor) => listMyStudies(who).find((s) => s.id === studyId)!;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  lead = await makeUser('lead', 'lead');
  early = await makeUser('early');
  late = await makeUser('late');
  studyId = createStudy(lead, { kind: 'flow_review', name: 'Guided', guidelines: 'Version one.', reviewersPerItem: 1, seed: 5 }).id;
  importItems(lead, studyId, KMP, 'concord');
  setStudyMembers(lead, studyId, { usernames: ['early', 'late'] });
  openStudy(lead, studyId);
});

describe('the "guidelines updated" notice on My work', () => {
  it('is not shown while the guidelines are at their first version', () => {
    const id = getQueue(early, studyId).currentId!;
    getFlowAssignment(early, id);
    saveDraft(early, { assignmentId: id, draft: { decision: 'verify' }, activeMs: 0 });
    vi.setSystemTime(Date.now() + 60_000);
    expect(updated(early)).toMatchObject({ guidelinesVersion: 1, guidelinesUpdated: false });
  });

  it('tells the reviewer who worked under version 1, and not the one who never opened an item', () => {
    editStudy(lead, studyId, { guidelines: 'Version two: check the arithmetic.' });
    vi.setSystemTime(Date.now() + 60_000);
    expect(updated(early)).toMatchObject({ guidelinesVersion: 2, guidelinesUpdated: true });
    expect(updated(late)).toMatchObject({ guidelinesVersion: 2, guidelinesUpdated: false });
    // Starting now, the late reviewer works under version 2 from their first item: nothing changed for them.
    const id = getQueue(late, studyId).currentId!;
    getFlowAssignment(late, id);
    saveDraft(late, { assignmentId: id, draft: { decision: 'verify' }, activeMs: 0 });
    expect(updated(late).guidelinesUpdated).toBe(false);
  });
});
