import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import { refOf } from '@/test/item-refs';
import { createRubricStudy } from '@/test/rubric-fixtures-rscreen';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';
import {
  getAdjudicationItem,
  getAdjudicationQueue,
  submitAdjudication,
  getAdjudicationView,
  submitRubricAdjudication,
} from './adjudication';
import { getQueue } from './flow-review';
import { getJudgeAssignment, submitJudgment } from './judging';
import { submitAndQueue } from './submit-and-queue';

/*
 * What an adjudicator may open: an item with a disagreement left to settle, or one already ruled on. An item the
 * reviewers agree on or have not finished is "not found", as a missing item is, for reading and for ruling.
 */

const { dir } = useTestDatabase();
let n = 0;
const rid = () => `adj-access-${String(++n).padStart(4, '0')}`;
const MISSING = 99_999_999;

const itemIdOf = (assignmentId: number) =>
  getDb().$client.prepare('SELECT item_id FROM assignments WHERE id = ?').pluck().get(assignmentId) as number;

describe('pairwise', () => {
  let adj: Actor;
  let studyId: number;
  const item = { agreed: 0, disputed: 0, pending: 0 };

  beforeAll(async () => {
    const lead = await makeUser('pwaccesslead', 'lead');
    const [one, two] = await Promise.all(['pwaccone', 'pwacctwo'].map((u) => makeUser(u)));
    adj = await makeUser('pwaccadj');
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Access', seed: 2 }).id;
    setStudyCriteria(lead, studyId, []);
    const pairs = [1, 2, 3].map((i) =>
      JSON.stringify({ id: `acc-${i}`, problem: `P${i}`, a: { source: 'x', text: `A${i}` }, b: { source: 'y', text: `B${i}` } }),
    );
    importItems(lead, studyId, writeTemp(dir, 'acc.jsonl', pairs.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['pwaccone', 'pwacctwo'], adjudicator: 'pwaccadj' });
    openStudy(lead, studyId);
    const judge = (who: Actor, id: number, choice: 'tie' | 'r1') =>
      submitJudgment(who, {
        assignmentId: getJudgeAssignment(who, id).assignmentId,
        requestId: rid(),
        activeMs: 1,
        choices: { overall: choice },
      });
    // One ties everywhere; the other ties on one item (agreement in either display order), prefers a reply on
    // another and leaves the third.
    for (let id = getQueue(one, studyId).currentId; id; id = getQueue(one, studyId).currentId) judge(one, id, 'tie');
    let id = getQueue(two, studyId).currentId!;
    item.agreed = itemIdOf(id);
    judge(two, id, 'tie');
    id = getQueue(two, studyId).currentId!;
    item.disputed = itemIdOf(id);
    judge(two, id, 'r1');
    item.pending = itemIdOf(getQueue(two, studyId).currentId!);
  });

  it('opens the disputed item, and answers "not found" for an agreed, an unfinished or a missing one', () => {
    expect(getAdjudicationQueue(adj, studyId).items.map((i) => i.itemId)).toEqual([item.disputed]);
    expect(getAdjudicationItem(adj, studyId, item.disputed).criteria[0].reviewers).toHaveLength(2);
    for (const itemId of [item.agreed, item.pending, MISSING]) {
      expect(
        codeOf(() => getAdjudicationItem(adj, studyId, itemId)),
        `item ${itemId}`,
      ).toBe('not_found');
      expect(
        codeOf(() => getAdjudicationView(adj, studyId, itemId)),
        `item ${itemId}`,
      ).toBe('not_found');
      const ruling = { studyId, itemId, requestId: rid(), choices: { overall: 'tie' }, rationales: {} };
      expect(
        codeOf(() => submitAdjudication(adj, ruling)),
        `item ${itemId}`,
      ).toBe('not_found');
    }
  });

  it('still opens an item once ruled on', () => {
    submitAdjudication(adj, { studyId, itemId: item.disputed, requestId: rid(), choices: { overall: 'tie' }, rationales: {} });
    expect(getAdjudicationItem(adj, studyId, item.disputed).criteria[0].ruling).toBe('tie');
  });
});

describe('rubric', () => {
  let adj: Actor;
  let studyId: number;
  const items: RubricItem[] = [1, 2].map((i) => ({
    id: `racc-${i}`,
    group: 'dialogue',
    history: [{ role: 'student', text: `I think it is ${i}.` }],
    reply: { source: `tutor-${i}`, text: `Reply ${i}` },
  }));
  const item = { agreed: 0, disputed: 0 };

  beforeAll(async () => {
    const lead = await makeUser('rbaccesslead', 'lead');
    const [one, two] = await Promise.all(['rbaccone', 'rbacctwo'].map((u) => makeUser(u)));
    adj = await makeUser('rbaccadj');
    studyId = createRubricStudy(lead, { name: 'Rubric access', items, reviewers: ['rbaccone', 'rbacctwo'], adjudicator: 'rbaccadj' });
    const labels = (label: string) => Object.fromEntries(MRBENCH_V3_CATALOG.map((d) => [d.id, label]));
    for (const who of [one, two]) {
      for (let id = getQueue(who, studyId).currentId; id; id = getQueue(who, studyId).currentId) {
        const itemId = itemIdOf(id);
        // They agree on the first item and differ on the second.
        const label = itemId === Math.min(...itemIds()) || who === one ? 'Yes' : 'No';
        submitAndQueue(who, { assignmentId: id, requestId: rid(), activeMs: 1, labels: labels(label) });
      }
    }
    // The adjudicator names rubric items by their numbers, not row ids (docs/decisions/0013).
    [item.agreed, item.disputed] = itemIds().map((id) => refOf(studyId, id));
  });

  const itemIds = () => getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? ORDER BY id').pluck().all(studyId) as number[];

  it('opens the disputed item, and answers "not found" for an agreed or a missing one', () => {
    expect(getAdjudicationQueue(adj, studyId).items.map((i) => i.itemId)).toEqual([item.disputed]);
    expect(getAdjudicationView(adj, studyId, item.disputed).kind).toBe('rubric-adjudication');
    for (const itemId of [item.agreed, MISSING]) {
      expect(
        codeOf(() => getAdjudicationView(adj, studyId, itemId)),
        `item ${itemId}`,
      ).toBe('not_found');
      const ruling = { studyId, itemId, requestId: rid(), labels: { mistake_identification: 'Yes' }, rationales: {} };
      expect(
        codeOf(() => submitRubricAdjudication(adj, ruling)),
        `item ${itemId}`,
      ).toBe('not_found');
    }
  });
});
