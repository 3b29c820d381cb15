import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { DomainError } from '../errors';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getAdjudicationItem, getAdjudicationQueue, submitAdjudication } from './adjudication';
import { toScreen } from './blinding';
import { getQueue } from './flow-review';
import { getJudgeAssignment, submitJudgment } from './judging';
import type { Label } from '@/lib/validation/labels';

/*
 * Adjudication is one core for every kind of study (the kind supplies only its units and labels), so its messages
 * are the same for any number of reviewers: a pairwise study with three reviewers per item is told "every
 * reviewer", as a rubric study is, never "both reviewers".
 */

useTestDatabase();
const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
let n = 0;
const rid = () => `adj-${String(++n).padStart(6, '0')}`;
const swappedOf = (assignmentId: number) =>
  getDb().$client.prepare('SELECT swapped FROM assignments WHERE id = ?').pluck().get(assignmentId) === 1;

let lead: Actor, adj: Actor, reviewers: Actor[];
let studyId: number;

/** Each reviewer gives `overall[k]` (canonical) on overall and tie elsewhere, on every item of their queue. */
function judgeAll(overall: Label[]) {
  reviewers.forEach((who, k) => {
    for (let id = getQueue(who, studyId).currentId; id; id = getQueue(who, studyId).currentId) {
      const a = getJudgeAssignment(who, id);
      const swapped = swappedOf(a.assignmentId);
      const choices = Object.fromEntries(a.criteria.map((c) => [c.id, toScreen(c.id === 'overall' ? overall[k] : 'tie', swapped)]));
      submitJudgment(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1000, choices });
    }
  });
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  adj = await makeUser('adj');
  reviewers = await Promise.all(['t1', 't2', 't3'].map((u) => makeUser(u)));
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Three reviewers', reviewersPerItem: 3, seed: 5 }).id;
  importItems(lead, studyId, PAIRS, 'concord');
  setStudyMembers(lead, studyId, { usernames: ['t1', 't2', 't3'], adjudicator: 'adj' });
  openStudy(lead, studyId);
  judgeAll(['win', 'win', 'tie']);
});

describe('adjudication of a study with three reviewers per item', () => {
  it('asks for a rationale to overrule every reviewer, in the words every kind uses', () => {
    const queue = getAdjudicationQueue(adj, studyId);
    expect(queue.total).toBe(3);
    const itemId = queue.currentItemId!;
    const item = getAdjudicationItem(adj, studyId, itemId);
    expect(item.reviewerCount).toBe(3);
    const overall = item.criteria.find((c) => c.id === 'overall')!;
    expect(overall.agreed).toBe(false);
    expect(overall.reviewers).toHaveLength(3);
    // "lose" is what none of the three gave.
    const swapped = !overall.reviewers.includes(toScreen('win', false));
    const choice = toScreen('lose', swapped);
    expect(overall.reviewers).not.toContain(choice);
    let error: unknown;
    try {
      submitAdjudication(adj, { studyId, itemId, requestId: rid(), choices: { overall: choice } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid');
    expect((error as DomainError).fieldErrors).toEqual({ overall: 'Explain why you overrule every reviewer.' });
    expect((error as DomainError).message).toBe('Settle every disagreement: overall: Explain why you overrule every reviewer.');
    const settled = submitAdjudication(adj, {
      studyId,
      itemId,
      requestId: rid(),
      choices: { overall: choice },
      rationales: { overall: 'All three missed it.' },
    });
    expect(settled).toEqual({ itemId, duplicate: false });
    const audit = getDb().$client.prepare("SELECT detail FROM audit_log WHERE action = 'item_adjudicated'").pluck().all() as string[];
    expect(audit.map((d) => JSON.parse(d))).toEqual([{ criteria: ['overall'] }]);
  });
});
