import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getQueue } from './flow-review';
import { getSubmissionHistory, setComment, setFlag } from './item-actions';
import { getJudgeAssignment, submitJudgment } from './judging';

/*
 * Blinding of what a pairwise reviewer's own flags, comments and history send back: no source, external id, judge
 * or other reviewer.
 */

// One database for the file: the describe below makes its accounts and study in it.
useTestDatabase();

describe('what the answers of flag, comment and history carry to a reviewer', () => {
  let lead: Actor, a1: Actor, a2: Actor;
  let studyId: number;

  beforeAll(async () => {
    lead = await makeUser('lead', 'lead');
    [a1, a2] = await Promise.all(['a1', 'a2'].map((u) => makeUser(u)));
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 3 }).id;
    importItems(lead, studyId, path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl'), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['a1', 'a2'] });
    openStudy(lead, studyId);
  });

  it('never carry a source, an external id, a judge or the other reviewer', () => {
    let n = 0;
    // Both reviewers work on the same items; a2 flags and comments on each, a1 judges and comments.
    for (const who of [a2, a1]) {
      for (let q = getQueue(who, studyId); q.currentId !== null; q = getQueue(who, studyId)) {
        const a = getJudgeAssignment(who, q.currentId);
        setFlag(who, { assignmentId: a.assignmentId, reason: `flag by ${who.username}` });
        setComment(who, { assignmentId: a.assignmentId, comment: `comment by ${who.username}` });
        const choices = Object.fromEntries(a.criteria.map((c) => [c.id, 'tie']));
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: `blind-${String(++n).padStart(4, '0')}`, activeMs: 0, choices });
      }
    }
    const forbidden = getDb()
      .$client.prepare('SELECT source_a, source_b, external_id FROM items WHERE study_id = ?')
      .raw()
      .all(studyId)
      .flat() as string[];
    const history = getSubmissionHistory(a1, { studyId });
    const answers = [
      history,
      ...history.items.map((i) => getJudgeAssignment(a1, i.assignmentId)),
      ...history.items.map((i) => setComment(a1, { assignmentId: i.assignmentId, comment: 'again' })),
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      for (const s of forbidden) expect(text).not.toContain(s);
      expect(text).not.toMatch(/"(source|sourceA|sourceB|externalId|username|userId|reviewer|judge)"/);
      expect(text).not.toContain('by a2');
    }
    expect(history.items).toHaveLength(forbidden.length / 3);
  });
});
