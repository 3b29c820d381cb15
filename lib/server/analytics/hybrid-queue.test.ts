import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { groundTruthSummary } from '@/test/ground-truth';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { getQueue } from '../review/flow-review';
import { openStudy } from '../studies/studies';
import { openHybridQueue } from './hybrid-queue';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';

/*
 * A calibration sample with ground truth (the Padó example: the judge's "win" is right 266 of 281 times, its
 * "lose" 8 of 19) and 100 further items only the judge has labelled: 40 "lose", 60 "win". The plan accepts
 * "win" and sends "lose" to people.
 */
const CALIBRATION: ['win' | 'lose', 'win' | 'lose', number][] = [
  ['win', 'win', 266],
  ['lose', 'win', 15],
  ['lose', 'lose', 8],
  ['win', 'lose', 11],
];
const cases = CALIBRATION.flatMap(([gold, judge, n]) => Array.from({ length: n }, () => ({ gold, judge })));
const unlabelled = [...Array.from({ length: 40 }, () => 'lose' as const), ...Array.from({ length: 60 }, () => 'win' as const)];

const { dir } = useTestDatabase();
let lead: Actor, r1: Actor, r2: Actor;
let studyId: number;
const count = (sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  r1 = await makeUser('r1');
  r2 = await makeUser('r2');
  studyId = buildStudy(lead, dir, {
    name: 'Hybrid queue',
    reviewersPerItem: 1,
    catalog: [],
    items: [...cases.map((_, k) => ({ id: `cal-${k}`, model: 'm' })), ...unlabelled.map((_, k) => ({ id: `new-${k}`, model: 'm' }))],
    annotations: cases.map((c, k) => ({ item: `cal-${k}`, annotator: 'expert', labels: { overall: c.gold } })),
    judges: [
      {
        name: 'judge',
        lines: [
          ...cases.map((c, k) => ({ item: `cal-${k}`, labels: { overall: c.judge } })),
          ...unlabelled.map((l, k) => ({ item: `new-${k}`, labels: { overall: l } })),
        ],
      },
    ],
  });
});

describe('the hybrid review queue', () => {
  it('needs an open study and staff', () => {
    expect(codeOf(() => openHybridQueue(lead, studyId, { judge: 'judge', usernames: ['r1'] }))).toBe('conflict');
    // Without reviewers, opening must be asked to leave items unassigned.
    expect(codeOf(() => openStudy(lead, studyId))).toBe('invalid');
    openStudy(lead, studyId, { leaveUnassigned: true });
    expect(codeOf(() => openHybridQueue(r1, studyId, { judge: 'judge', usernames: ['r1'] }))).toBe('forbidden');
  });

  it('sends exactly the unreviewed items of the reviewed class to the chosen people', () => {
    const before = count('SELECT count(*) FROM assignments WHERE study_id = ?', studyId);
    const q = openHybridQueue(lead, studyId, { judge: 'judge', usernames: ['r1', 'r2'] });
    expect(q).toMatchObject({ routed: 40, extra: 0 });
    expect(q.assignments).toEqual([
      { username: 'r1', items: 20 },
      { username: 'r2', items: 20 },
    ]);
    const routed = getDb()
      .$client.prepare(
        `SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND a.user_id IN (?, ?) ORDER BY i.position`,
      )
      .pluck()
      .all(studyId, r1.id, r2.id) as string[];
    expect(routed).toEqual(Array.from({ length: 40 }, (_, k) => `new-${k}`));
    expect(count('SELECT count(*) FROM assignments WHERE study_id = ?', studyId)).toBe(before + 40);
    // Nothing left to route under the same plan.
    expect(codeOf(() => openHybridQueue(lead, studyId, { judge: 'judge', usernames: ['r1'] }))).toBe('conflict');
  });

  it('adds random items of the accepted class when the target needs them', () => {
    const q = openHybridQueue(lead, studyId, { judge: 'judge', target: 0.97, usernames: ['r1'] });
    // The plan expects 113 extra reviews at 97 %; only the 60 unreviewed "win" items exist.
    expect(q).toMatchObject({ routed: 0, extra: 60 });
  });

  it('turns completed reviews into ground truth', () => {
    const before = groundTruthSummary(lead, studyId).complete;
    const a = getJudgeAssignment(r1, getQueue(r1, studyId).currentId!);
    submitJudgment(r1, { assignmentId: a.assignmentId, requestId: 'hybrid-review-1', activeMs: 0, choices: { overall: 'tie' } });
    expect(groundTruthSummary(lead, studyId).complete).toBe(before + 1);
  });
});
