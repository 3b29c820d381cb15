import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { codeOf } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import type { RubricHybridQueueDto } from './dto';
import { openHybridQueue } from './hybrid-queue';

/** The shared queue on a rubric study, whose answer carries `lenient` and `perTutor`. */
const openRubricQueue = (actor: Actor, id: number, input: unknown) => openHybridQueue(actor, id, input) as RubricHybridQueueDto;

/*
 * Padó's calibration sample split over two tutors (as in hybrid-rubric-study.test.ts): tutor A's "Yes" is right 200 of
 * 215 times; tutor B's "Yes" 66 of 66, its "No" 8 of 19. Beyond it, replies only the judge labelled: A 30 × "Yes";
 * B 10 × "No" and 20 × "Yes".
 *
 * One plan for both tutors accepts "Yes" and reaches 95 % without extra reviews: the queue is B's 10 "No".
 * Per tutor: A's plan accepts "Yes" and needs ⌈5 · 215/15⌉ = 72 extra random reviews, capped by A's 30 unlabelled
 * "Yes"; B's plan reviews its 10 "No".
 */
const CATALOG: RubricCatalog = [
  { id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
];
const CAL: [string, string, string, number][] = [
  ['A', 'Yes', 'Yes', 200],
  ['A', 'No', 'Yes', 15],
  ['B', 'Yes', 'Yes', 66],
  ['B', 'No', 'No', 8],
  ['B', 'Yes', 'No', 11],
];
const NEW: [string, string, number][] = [
  ['A', 'Yes', 30],
  ['B', 'No', 10],
  ['B', 'Yes', 20],
];

useTestDatabase();
let lead: Actor;
let studyId: number;
const count = (sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  await makeUser('r1');
  await makeUser('r2');
  const cal = CAL.flatMap(([tutor, gold, judge, n]) => Array.from({ length: n }, () => ({ tutor, gold, judge })));
  const fresh = NEW.flatMap(([tutor, judge, n]) => Array.from({ length: n }, () => ({ tutor, judge })));
  studyId = buildRubricStudy(lead, {
    name: 'Rubric hybrid queue',
    catalog: CATALOG,
    reviewersPerItem: 1,
    items: [...cal.map((c, k) => ({ id: `cal-${k}`, source: c.tutor })), ...fresh.map((c, k) => ({ id: `new-${k}`, source: c.tutor }))],
    annotations: cal.map((c, k) => ({ item: `cal-${k}`, annotator: 'expert', labels: { mi: c.gold } })),
    judges: [
      {
        name: 'llm',
        lines: [
          ...cal.map((c, k) => ({ item: `cal-${k}`, labels: { mi: c.judge } })),
          ...fresh.map((c, k) => ({ item: `new-${k}`, labels: { mi: c.judge } })),
        ],
      },
    ],
  });
});

const assignedNew = () =>
  getDb()
    .$client.prepare(
      "SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND i.external_id LIKE 'new-%' ORDER BY i.id",
    )
    .pluck()
    .all(studyId) as string[];

describe('the rubric hybrid review queue', () => {
  it('refuses unknown accounts and staff-only access', async () => {
    expect(codeOf(() => openRubricQueue(lead, studyId, { judge: 'llm', lenient: true, usernames: ['nobody'] }))).toBe('invalid');
    const r1 = { id: count("SELECT id FROM users WHERE username = 'r1'"), username: 'r1', displayName: 'R1', role: 'annotator' as const };
    expect(codeOf(() => openRubricQueue(r1, studyId, { judge: 'llm', usernames: ['r1'] }))).toMatch(/forbidden|not_found/);
  });

  it('one plan for every tutor: sends the judge\'s unreviewed "No" to people', () => {
    const q = openRubricQueue(lead, studyId, { judge: 'llm', lenient: true, usernames: ['r1', 'r2'] });
    expect(q).toMatchObject({ criterion: 'mi', lenient: true, perTutor: false, routed: 10, extra: 0 });
    expect(q.assignments.reduce((s, a) => s + a.items, 0)).toBe(10);
    // The ten are exactly B's "No" replies (new-30 … new-39).
    expect(assignedNew()).toEqual(Array.from({ length: 10 }, (_, k) => `new-${30 + k}`));
  });

  it("per tutor: tutor A's plan adds random reviews of its accepted class; items already queued are not sent again", () => {
    const q = openRubricQueue(lead, studyId, { judge: 'llm', lenient: true, perTutor: true, usernames: ['r1'] });
    // B's "No" are queued already; A's plan wants 72 extra reviews of "Yes" and A has 30 unreviewed.
    expect(q).toMatchObject({ perTutor: true, routed: 0, extra: 30 });
    expect(assignedNew()).toHaveLength(40);
    expect(
      count(
        "SELECT count(*) FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND i.source_a = 'A' AND i.external_id LIKE 'new-%'",
        studyId,
      ),
    ).toBe(30);
    expect(codeOf(() => openRubricQueue(lead, studyId, { judge: 'llm', lenient: true, perTutor: true, usernames: ['r1'] }))).toBe(
      'conflict',
    );
  });
});
