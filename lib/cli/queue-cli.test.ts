import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import type { Actor } from '@/lib/server/actor';
import { openHybridQueue } from '@/lib/server/analytics/hybrid-queue';
import { openActiveQueue } from '@/lib/server/analytics/review-queue-active';
import { openStudy } from '@/lib/server/studies/studies';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { buildStudy } from '@/test/analytics-fixtures';
import { runInBatch } from '@/test/cli-batch';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';

/*
 * `concord queue open` (issue 28), run by a real CLI process on a copy of the test's database, against the use-cases the
 * dashboard's forms call, run in this process on the original: both start from the same rows, so the same queue
 * must put the same items, in the same order, in the same people's queues, and print the use-case's answer.
 *   - pairwise: Padó's calibration sample (the judge's "win" 266 of 281 right, its "lose" 8 of 19) and 100 items only
 *     the judge labelled (40 "lose", 60 "win"); the plan reviews "lose", at 97 % it adds random "win" checks;
 *   - a second pairwise study of 60 judged items for the active order;
 *   - rubric: the same sample over two tutors, with replies only the judge labelled; one plan, then each tutor's.
 */
const { dir } = useTestDatabase();
const COPY = path.join(dir, 'cli-copy.db');
let lead: Actor;
let pairwise: number;
let active: number;
let rubric: number;
let rubricActive: number;

/** One `concord batch` process on the copy (test/cli-batch.ts): each command runs as it would alone. */
function concord(args: string[]) {
  const r = runInBatch({ ...process.env, CONCORD_DB: COPY }, args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

const CAL: ['win' | 'lose', 'win' | 'lose', number][] = [
  ['win', 'win', 266],
  ['lose', 'win', 15],
  ['lose', 'lose', 8],
  ['win', 'lose', 11],
];
const CATALOG: RubricCatalog = [
  { id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
];
const TUTORS: [string, string, string, number][] = [
  ['A', 'Yes', 'Yes', 200],
  ['A', 'No', 'Yes', 15],
  ['B', 'Yes', 'Yes', 66],
  ['B', 'No', 'No', 8],
  ['B', 'Yes', 'No', 11],
];
const FRESH: [string, string, number][] = [
  ['A', 'Yes', 30],
  ['B', 'No', 10],
  ['B', 'Yes', 20],
];

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  await makeUser('r1');
  await makeUser('r2');
  const cases = CAL.flatMap(([gold, judge, n]) => Array.from({ length: n }, () => ({ gold, judge })));
  const fresh = [...Array.from({ length: 40 }, () => 'lose' as const), ...Array.from({ length: 60 }, () => 'win' as const)];
  pairwise = buildStudy(lead, dir, {
    name: 'Queue CLI',
    reviewersPerItem: 1,
    catalog: [],
    items: [...cases.map((_, k) => ({ id: `cal-${k}`, model: 'm' })), ...fresh.map((_, k) => ({ id: `new-${k}`, model: 'm' }))],
    annotations: cases.map((c, k) => ({ item: `cal-${k}`, annotator: 'expert', labels: { overall: c.gold } })),
    judges: [
      {
        name: 'judge',
        lines: [
          ...cases.map((c, k) => ({ item: `cal-${k}`, labels: { overall: c.judge } })),
          ...fresh.map((l, k) => ({ item: `new-${k}`, labels: { overall: l } })),
        ],
      },
    ],
  });
  openStudy(lead, pairwise, { leaveUnassigned: true });
  active = buildStudy(lead, dir, {
    name: 'Active CLI',
    reviewersPerItem: 1,
    catalog: [],
    items: Array.from({ length: 60 }, (_, k) => ({ id: `a-${k}`, model: 'm' })),
    annotations: [],
    judges: [
      { name: 'judge', lines: Array.from({ length: 60 }, (_, k) => ({ item: `a-${k}`, labels: { overall: k % 3 ? 'win' : 'lose' } })) },
    ],
  });
  openStudy(lead, active, { leaveUnassigned: true });
  const cal = TUTORS.flatMap(([tutor, gold, judge, n]) => Array.from({ length: n }, () => ({ tutor, gold, judge })));
  const later = FRESH.flatMap(([tutor, judge, n]) => Array.from({ length: n }, () => ({ tutor, judge })));
  rubric = buildRubricStudy(lead, {
    name: 'Rubric queue CLI',
    catalog: CATALOG,
    reviewersPerItem: 1,
    items: [...cal.map((c, k) => ({ id: `cal-${k}`, source: c.tutor })), ...later.map((c, k) => ({ id: `new-${k}`, source: c.tutor }))],
    annotations: cal.map((c, k) => ({ item: `cal-${k}`, annotator: 'expert', labels: { mi: c.gold } })),
    judges: [
      {
        name: 'llm',
        lines: [
          ...cal.map((c, k) => ({ item: `cal-${k}`, labels: { mi: c.judge } })),
          ...later.map((c, k) => ({ item: `new-${k}`, labels: { mi: c.judge } })),
        ],
      },
    ],
  });
  // Active order on a rubric study: 40 replies the judge labelled in two samples that disagree on every fourth.
  rubricActive = buildRubricStudy(lead, {
    name: 'Rubric active CLI',
    catalog: CATALOG,
    reviewersPerItem: 1,
    items: Array.from({ length: 40 }, (_, k) => ({ id: `ra-${k}`, source: k % 2 ? 'B' : 'A' })),
    annotations: [],
    judges: [
      {
        name: 'llm',
        lines: [1, 2].flatMap((sample) =>
          Array.from({ length: 40 }, (_, k) => ({ item: `ra-${k}`, sample, labels: { mi: sample === 2 && k % 4 === 0 ? 'No' : 'Yes' } })),
        ),
      },
    ],
  });
  // The CLI's database: a consistent copy of this one, made before any queue is opened.
  getDb().$client.exec(`VACUUM INTO '${COPY.replace(/'/g, "''")}'`);
}, 60_000);

/** Every assignment of the study, in a fixed order: item, person, position in their queue. */
const ASSIGNMENTS = 'SELECT item_id, user_id, queue_position FROM assignments WHERE study_id = ? ORDER BY user_id, queue_position, item_id';
function assignmentsIn(file: string | null, studyId: number) {
  if (!file) return getDb().$client.prepare(ASSIGNMENTS).all(studyId);
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(ASSIGNMENTS).all(studyId);
  } finally {
    db.close();
  }
}

/** Opens the queue with the CLI on the copy and with the use-case here; both answers and both sets of assignments must agree. */
function sameQueue(args: string[], studyId: number, useCase: () => unknown) {
  const before = assignmentsIn(null, studyId).length;
  const r = concord(['queue', 'open', String(studyId), ...args, '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const expected = useCase();
  expect(JSON.parse(r.out)).toEqual(expected);
  const mine = assignmentsIn(null, studyId);
  expect(mine.length).toBeGreaterThan(before);
  expect(assignmentsIn(COPY, studyId)).toEqual(mine);
  return expected;
}

describe('concord queue open', () => {
  it("opens the hybrid plan's queue (Padó's plan) as the use-case does, then its random checks at a higher target", () => {
    const q = sameQueue(['r1', 'r2', '--judge', 'judge'], pairwise, () =>
      openHybridQueue(lead, pairwise, { judge: 'judge', usernames: ['r1', 'r2'] }),
    );
    expect(q).toMatchObject({ judge: 'judge', criterion: 'overall', routed: 40, extra: 0 });
    const extra = sameQueue(['r2', '--judge', 'judge', '--target', '0.97', '--plan', 'pado'], pairwise, () =>
      openHybridQueue(lead, pairwise, { judge: 'judge', target: '0.97', plan: 'pado', usernames: ['r2'] }),
    );
    expect(extra).toMatchObject({ routed: 0, extra: 60 });
  });

  it("opens a rubric study's queue: one lenient plan, then the guarantee's per tutor", () => {
    const one = sameQueue(['r1', 'r2', '--judge', 'llm', '--lenient'], rubric, () =>
      openHybridQueue(lead, rubric, { judge: 'llm', lenient: true, usernames: ['r1', 'r2'] }),
    );
    expect(one).toMatchObject({ criterion: 'mi', lenient: true, perTutor: false, routed: 10, extra: 0 });
    // Tutor A's "Yes" is wrong 15 times in 215 (7 %): the guarantee at ε = 5 % does not accept it, so A's 30 go too.
    const perTutor = sameQueue(['r1', '--judge', 'llm', '--per-tutor', '--plan', 'guaranteed', '--delta', '0.1'], rubric, () =>
      openHybridQueue(lead, rubric, { judge: 'llm', perTutor: true, plan: 'guaranteed', delta: '0.1', usernames: ['r1'] }),
    );
    expect(perTutor).toMatchObject({ lenient: false, perTutor: true, extra: 0 });
    expect((perTutor as { routed: number }).routed).toBeGreaterThanOrEqual(30);
  });

  it('opens a queue in active order, drawing the same items with the same stored draw', () => {
    const d = sameQueue(['r1', '--judge', 'judge', '--order', 'active', '--budget', '0.3', '--tau', '0.5'], active, () =>
      openActiveQueue(lead, active, { judge: 'judge', budget: '0.3', tau: '0.5', usernames: ['r1'] }),
    );
    expect(d).toMatchObject({ source: 'orders', pool: 60, budget: 0.3, tau: 0.5 });
    const draws = 'SELECT item_id, pi, drawn FROM active_draw_items ORDER BY item_id';
    const copy = new Database(COPY, { readonly: true });
    try {
      expect(copy.prepare(draws).all()).toEqual(getDb().$client.prepare(draws).all());
    } finally {
      copy.close();
    }
  });

  it("opens a rubric study's queue in active order on a dimension, by the spread of the judge's samples", () => {
    const d = sameQueue(['r1', 'r2', '--judge', 'llm', '--order', 'active', '--criterion', 'mi', '--budget', '0.3'], rubricActive, () =>
      openActiveQueue(lead, rubricActive, { judge: 'llm', criterion: 'mi', budget: '0.3', usernames: ['r1', 'r2'] }),
    );
    expect(d).toMatchObject({ judge: 'llm', criterion: 'mi', source: 'samples', pool: 40, budget: 0.3, tau: 0.5 });
    const draws = `SELECT d.item_id, d.pi, d.drawn, a.criterion FROM active_draw_items d JOIN active_draws a ON a.id = d.draw_id
      WHERE a.study_id = ${rubricActive} ORDER BY d.item_id`;
    const copy = new Database(COPY, { readonly: true });
    try {
      const stored = getDb().$client.prepare(draws).all() as { pi: number; criterion: string }[];
      expect(stored).toHaveLength(40);
      expect(new Set(stored.map((r) => r.criterion))).toEqual(new Set(['mi']));
      // The replies whose samples disagree are drawn with a higher probability than the rest.
      expect(new Set(stored.map((r) => r.pi)).size).toBe(2);
      expect(copy.prepare(draws).all()).toEqual(stored);
    } finally {
      copy.close();
    }
    const r = concord(['queue', 'open', String(rubricActive), 'r1', '--judge', 'llm', '--order', 'active', '--source', 'orders']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('A rubric run has no two orders');
  });

  it("refuses in the browser's words, and refuses an option of the other order", () => {
    const refused = (args: string[]) => {
      const r = concord(['queue', 'open', ...args]);
      expect(r.code).not.toBe(0);
      return r.err;
    };
    expect(refused([String(pairwise), '--judge', 'judge'])).toContain('Choose at least one reviewer.');
    expect(refused([String(pairwise), 'r1', '--judge', 'judge', '--plan', 'maybe'])).toContain('plan is pado or guaranteed.');
    expect(refused([String(active), 'r1', '--judge', 'judge', '--order', 'active', '--budget', '2'])).toContain(
      'budget is a share, at most 1.',
    );
    expect(refused([String(pairwise), 'nobody', '--judge', 'judge'])).toContain('No active account named "nobody".');
    expect(refused([String(active), 'r1', '--judge', 'judge', '--order', 'active', '--plan', 'guaranteed'])).toContain(
      'plan: not an option of the active order',
    );
  });

  it('prints what the queue got in words without --json', () => {
    const r = concord(['queue', 'open', String(active), 'r2', '--judge', 'judge', '--order', 'active', '--budget', '0.5']);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Drew \d+ of \d+ item\(s\) \(\d+\.\d expected, seed \d+\) by the disagreement of the two orders: r2 \d+\.\n$/);
  });
});
