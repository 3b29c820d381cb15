import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import { rowIdOf } from '@/test/item-refs';
import { addRubricJudgeRun, createRubricStudy, mrbenchItems } from '@/test/rubric-fixtures-rscreen';
import type { RubricItem } from '@/lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { Actor } from '../actor';
import { getAdjudicationQueue, getAdjudicationView } from './adjudication';
import { getRubricItem } from '../studies/item-dimensions';
import { getAssignmentView, getMySubmission, getQueue } from './flow-review';
import { getSubmissionHistory, setComment, setFlag } from './item-actions';
import { submitAndQueue } from './submit-and-queue';

/*
 * Blinding on the screens of a rubric study: what reviewers and the adjudicator see, and whose remarks reach whom.
 */

// One database for the file: the describe below makes its accounts and study in it.
useTestDatabase();

describe('rubric screens', () => {
  // Distinctive strings that must never reach a reviewer or an adjudicator of a rubric study.
  const SECRET = /ZQXSRC|ZQXID|ZQXGRP|ZQXJUDGE/;
  const items: RubricItem[] = mrbenchItems(2, ['Sonnet', 'Expert']).map((it, i) => ({
    ...it,
    id: `ZQXID-${i}`,
    group: `ZQXGRP-${it.group}`,
    reply: { source: `ZQXSRC-${it.reply!.source}`, text: it.reply!.text },
  }));
  let lead: Actor, one: Actor, two: Actor, adj: Actor, studyId: number;

  beforeAll(async () => {
    lead = await makeUser('blindlead', 'lead');
    [one, two, adj] = await Promise.all(['blindone', 'blindtwo', 'blindadj'].map((u) => makeUser(u)));
    studyId = createRubricStudy(lead, { name: 'Blind rubric', items, reviewers: ['blindone', 'blindtwo'], adjudicator: 'blindadj' });
    addRubricJudgeRun(
      lead,
      studyId,
      'ZQXJUDGE-run',
      items.map((it) => ({ item: it.id, labels: { mistake_identification: 'No' }, rationale: 'ZQXJUDGE says no' })),
    );
  });

  it('no view of a reviewer or the adjudicator carries a source, an item id, a group key, a judge verdict or the other reviewer', () => {
    const seen: string[] = [];
    for (const [who, label] of [
      [one, 'Yes'],
      [two, 'No'],
    ] as const) {
      for (;;) {
        const q = getQueue(who, studyId);
        seen.push(JSON.stringify(q));
        if (q.currentId === null) break;
        const view = getAssignmentView(who, q.currentId);
        seen.push(JSON.stringify(view));
        const labels = Object.fromEntries(MRBENCH_V3_CATALOG.map((d) => [d.id, label]));
        seen.push(
          JSON.stringify(
            submitAndQueue(who, { assignmentId: q.currentId, requestId: `blind-${who.id}-${q.currentId}`, activeMs: 1, labels }),
          ),
        );
      }
    }
    const queue = getAdjudicationQueue(adj, studyId);
    seen.push(JSON.stringify(queue));
    expect(queue.total).toBe(items.length);
    for (const i of queue.items) {
      const item = getAdjudicationView(adj, studyId, i.itemId);
      expect(item.kind).toBe('rubric-adjudication');
      seen.push(JSON.stringify(item));
    }
    const all = seen.join('\n');
    expect(all).not.toMatch(SECRET);
    expect(all).not.toMatch(/blindone|blindtwo|BLINDONE|BLINDTWO/);
    // The reply texts themselves do reach them (what they are asked to label).
    expect(all).toContain(JSON.stringify(items[0].reply!.text).slice(1, 40));
  });

  it('one reviewer’s flags and comments reach the study’s leads, never the other reviewer or the adjudicator', () => {
    for (const h of getSubmissionHistory(one, { studyId }).items) {
      setFlag(one, { assignmentId: h.assignmentId, reason: 'ZQXREMARK flag' });
      setComment(one, { assignmentId: h.assignmentId, comment: 'ZQXREMARK comment' });
    }
    const seen: string[] = [JSON.stringify(getQueue(two, studyId)), JSON.stringify(getAdjudicationQueue(adj, studyId))];
    const history = getSubmissionHistory(two, { studyId });
    seen.push(JSON.stringify(history));
    for (const h of history.items) {
      seen.push(JSON.stringify(getAssignmentView(two, h.assignmentId)), JSON.stringify(getMySubmission(two, h.assignmentId)));
    }
    for (const i of getAdjudicationQueue(adj, studyId).items) seen.push(JSON.stringify(getAdjudicationView(adj, studyId, i.itemId)));
    expect(history.items).toHaveLength(items.length);
    expect(seen.join('\n')).not.toContain('ZQXREMARK');
    // The lead's item page names them, beside the reviewer who left them.
    // The adjudicator's number of the item, turned back into the row id the lead's page takes.
    const itemId = rowIdOf(studyId, getAdjudicationQueue(adj, studyId).items[0].itemId);
    const page = getRubricItem(lead, studyId, itemId);
    expect(page.reviewers.find((r) => r.username === 'blindone')!.remarks).toMatchObject({
      flagReason: 'ZQXREMARK flag',
      comment: 'ZQXREMARK comment',
    });
    expect(page.reviewers.find((r) => r.username === 'blindtwo')!.remarks.flagReason).toBeNull();
  });
});
