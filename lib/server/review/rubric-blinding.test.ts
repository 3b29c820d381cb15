import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import { createRubricStudy } from '@/test/rubric-fixtures-rscreen';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { getAdjudicationQueue, getAdjudicationView } from './adjudication';
import { getAssignmentView, getQueue } from './flow-review';
import { getSubmissionHistory } from './item-actions';
import type { RubricAdjudicationItemDto, RubricAssignmentDto } from './dto';
import { submitAndQueue } from './submit-and-queue';

/*
 * Blinding by position. A rubric file that lists every dialogue's tutors in the same order (tutor 0 first, tutor 4
 * last, as the public datasets do) must not let a reviewer or the adjudicator tell which tutor wrote a reply from
 * anything they receive: not the item id, not the item number shown ("Item N"), not the reply's place among the
 * dialogue's replies ("reply 2 of 5"), not the order of their queue. For each identifier we rank the replies of a
 * dialogue by it and count how often the rank names the tutor: chance is 1 in 5; the file order would give 5 in 5.
 */

useTestDatabase();

const DIALOGUES = 30;
const TUTORS = 5;
const items: RubricItem[] = Array.from({ length: DIALOGUES }, (_, d) =>
  Array.from({ length: TUTORS }, (_, t) => ({
    id: `dlg-${d}-tutor-${t}`,
    group: `dlg-${d}`,
    history: [{ role: 'student' as const, text: `Dialogue ${d}: I think 3 × 4 is 7.` }],
    reply: { source: `tutor-${t}`, text: `Reply ${d}/${t}: let us count groups of four.` },
  })),
).flat();

/** The test's own oracle: which dialogue and tutor a reply text belongs to (the text is what people read anyway). */
function whose(reply: string | null): { d: number; t: number } {
  const m = /^Reply (\d+)\/(\d+):/.exec(reply ?? '');
  if (!m) throw new Error(`not a reply of this test: ${reply}`);
  return { d: Number(m[1]), t: Number(m[2]) };
}

type Seen = { d: number; t: number; values: Record<string, number> };

/**
 * The share of replies whose rank inside their dialogue, by `key`, is their tutor's place in the file. Chance is
 * 1/TUTORS; an identifier that follows the file gives 1.
 */
function rankHits(seen: readonly Seen[], key: string): number {
  const byDialogue = new Map<number, Seen[]>();
  for (const s of seen) byDialogue.set(s.d, [...(byDialogue.get(s.d) ?? []), s]);
  let hits = 0;
  for (const replies of byDialogue.values()) {
    const ranked = [...replies].sort((a, b) => a.values[key] - b.values[key]);
    ranked.forEach((s, rank) => (hits += Number(rank === s.t)));
  }
  return hits / seen.length;
}

/** For each tutor, the distinct values of `key` (a place inside the dialogue) across dialogues. */
const placesOf = (seen: readonly Seen[], key: string, tutor: number) =>
  new Set(seen.filter((s) => s.t === tutor).map((s) => s.values[key]));

const CHANCE_LIMIT = 0.4; // chance is 0.2 (sd ≈ 0.033 over 150 replies); the file order gives 1.

let lead: Actor, one: Actor, two: Actor, adj: Actor;
let studyId: number;
const reviewerSeen = new Map<string, Seen[]>();
const views = new Map<string, RubricAssignmentDto[]>();

beforeAll(async () => {
  lead = await makeUser('posblindlead', 'lead');
  [one, two, adj] = await Promise.all(['posblindone', 'posblindtwo', 'posblindadj'].map((u) => makeUser(u)));
  studyId = createRubricStudy(lead, {
    name: 'Fixed tutor order',
    items,
    reviewers: ['posblindone', 'posblindtwo'],
    adjudicator: 'posblindadj',
    seed: 11,
  });
  // Both review every reply (two reviewers per item) and disagree everywhere, so the adjudicator gets every reply.
  for (const [who, label] of [
    [one, 'Yes'],
    [two, 'No'],
  ] as const) {
    const seen: Seen[] = [];
    const mine: RubricAssignmentDto[] = [];
    for (let id = getQueue(who, studyId).currentId, k = 0; id; id = getQueue(who, studyId).currentId, k++) {
      const view = getAssignmentView(who, id) as RubricAssignmentDto;
      mine.push(view);
      const { d, t } = whose(view.reply);
      seen.push({
        d,
        t,
        values: {
          itemId: view.itemId,
          position: view.position,
          assignmentId: view.assignmentId,
          queuePosition: view.queuePosition,
          groupIndex: view.group!.index,
          servedAs: k,
        },
      });
      const labels = Object.fromEntries(MRBENCH_V3_CATALOG.map((dim) => [dim.id, label]));
      submitAndQueue(who, { assignmentId: id, requestId: `posblind-${who.id}-${k}`, activeMs: 1, labels });
    }
    reviewerSeen.set(who.username, seen);
    views.set(who.username, mine);
  }
}, 60_000);

describe('a rubric file that lists every dialogue’s tutors in the same order', () => {
  it('each reviewer gets every reply, grouped by dialogue', () => {
    for (const seen of reviewerSeen.values()) expect(seen).toHaveLength(DIALOGUES * TUTORS);
  });

  it('nothing a reviewer receives ranks the replies of a dialogue in the file’s tutor order', () => {
    for (const [who, seen] of reviewerSeen) {
      for (const key of ['itemId', 'position', 'assignmentId', 'queuePosition', 'groupIndex', 'servedAs']) {
        expect(rankHits(seen, key), `${who}: ${key}`).toBeLessThan(CHANCE_LIMIT);
      }
    }
  });

  it('a tutor’s place among a dialogue’s replies is not constant, and not the same for both reviewers', () => {
    for (const [who, seen] of reviewerSeen) {
      for (let t = 0; t < TUTORS; t++) expect(placesOf(seen, 'groupIndex', t).size, `${who}: tutor ${t}`).toBeGreaterThan(2);
    }
    const order = (who: string) =>
      [...reviewerSeen.get(who)!].sort((a, b) => a.values.queuePosition - b.values.queuePosition).map((s) => `${s.d}/${s.t}`);
    expect(order('posblindone')).not.toEqual(order('posblindtwo'));
  });

  it('ids and item numbers do not follow the file order', () => {
    for (const [who, seen] of reviewerSeen) {
      const inFileOrder = [...seen].sort((a, b) => a.d - b.d || a.t - b.t);
      for (const key of ['itemId', 'position']) {
        const rising = inFileOrder.slice(1).filter((s, i) => s.values[key] > inFileOrder[i].values[key]).length;
        expect(rising / (inFileOrder.length - 1), `${who}: ${key}`).toBeLessThan(0.75);
      }
    }
  });

  it('the history numbers each reply as the screen did', () => {
    for (const who of [one, two]) {
      const shown = new Map(views.get(who.username)!.map((v) => [v.assignmentId, v.position]));
      const history = getSubmissionHistory(who, { studyId, limit: 200 });
      expect(history.items).toHaveLength(DIALOGUES * TUTORS);
      for (const h of history.items) expect(h.position, `assignment ${h.assignmentId}`).toBe(shown.get(h.assignmentId));
      // Searching by the number shown finds that reply.
      const probe = history.items[17];
      expect(getSubmissionHistory(who, { studyId, search: String(probe.position) }).items.map((i) => i.assignmentId)).toContain(
        probe.assignmentId,
      );
    }
  });

  it('a reload shows the same numbers and order', () => {
    for (const who of [one, two]) {
      for (const v of views.get(who.username)!.slice(0, 10)) {
        const again = getAssignmentView(who, v.assignmentId) as RubricAssignmentDto;
        expect([again.itemId, again.position, again.group]).toEqual([v.itemId, v.position, v.group]);
      }
    }
  });

  it('nothing the adjudicator receives ranks the replies in the file’s tutor order either', () => {
    const queue = getAdjudicationQueue(adj, studyId);
    expect(queue.total).toBe(DIALOGUES * TUTORS);
    expect(getAdjudicationQueue(adj, studyId)).toEqual(queue);
    const seen: Seen[] = queue.items.map((entry, k) => {
      const view = getAdjudicationView(adj, studyId, entry.itemId) as RubricAdjudicationItemDto;
      expect([view.itemId, view.position]).toEqual([entry.itemId, entry.position]);
      const { d, t } = whose(view.reply);
      return { d, t, values: { itemId: entry.itemId, position: entry.position, queueOrder: k } };
    });
    for (const key of ['itemId', 'position', 'queueOrder']) expect(rankHits(seen, key), key).toBeLessThan(CHANCE_LIMIT);
  });
});
