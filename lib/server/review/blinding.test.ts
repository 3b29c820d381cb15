import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import { addRubricJudgeRun, createRubricStudy, mrbenchItems } from '@/test/rubric-fixtures-rscreen';
import type { RubricItem } from '@/lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { Actor } from '../actor';
import { getAdjudicationQueue } from './adjudication';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import type { ScreenChoice } from './dto';
import { getAssignmentView, getQueue } from './flow-review';
import { getAdjudicationView } from './rubric-adjudication';
import { submitAndQueue } from './submit-and-queue';

useTestDatabase();

describe('display order', () => {
  it('maps what a person pressed to reply a’s side and back', () => {
    expect(toCanonical('r1', false)).toBe('win');
    expect(toCanonical('r1', true)).toBe('lose');
    expect(toCanonical('r2', false)).toBe('lose');
    expect(toCanonical('r2', true)).toBe('win');
    expect(toCanonical('tie', true)).toBe('tie');
    for (const swapped of [false, true])
      for (const c of ['r1', 'tie', 'r2'] as ScreenChoice[]) expect(toScreen(toCanonical(c, swapped), swapped)).toBe(c);
  });

  it('gives adjudicators a stable order that varies across items', () => {
    expect(adjudicatorSwapped(5, 10, 3)).toBe(adjudicatorSwapped(5, 10, 3));
    const share = Array.from({ length: 1000 }, (_, i) => adjudicatorSwapped(5, i, 3)).filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });
});

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
});
