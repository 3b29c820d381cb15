import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { GROUND_TRUTH_GRADER, leaderboardReport } from './leaderboard';
import { buildStudy, codeOf, labels } from '@/test/analytics-fixtures';

/*
 * Two models, one annotator (whose labels are the ground truth) and one judge. Labels per item in the order
 * clarity, correctness (general), practice_task (Practice), feedback_tone (Feedback), overall:
 *
 *   model m1: p1 WWWTW  p2 WWLWW  p3 WTTTT  p4 TLLLL     judge: p1 WWWWW  p2 WWWWW  p3 TTTTT  p4 LLLLL
 *   model m2: p5 LLLLL  p6 TWTLL  p7 LLWTT  p8 TTTWW     judge: p5 LLLLL  p6 LLLLL  p7 TTTTT  p8 WWWWW
 *
 * Hand counts (W/T/L) of the ground truth:
 *   m1: clarity 3/1/0, correctness 2/1/1, practice 1/1/2, feedback 1/2/1, overall 2/1/1
 *   m2: clarity 0/2/2, correctness 1/1/2, practice 1/2/1, feedback 1/1/2, overall 1/1/2
 * and of the judge: m1 2/1/1 on every criterion, m2 1/1/2 on every criterion.
 */
const CRITERIA = ['clarity', 'correctness', 'practice_task', 'feedback_tone', 'overall'];
const CATALOG = [
  { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
  { id: 'correctness', name: 'Correctness', level: 'general', description: 'Which reply is correct?' },
  {
    id: 'practice_task',
    name: 'Practice task',
    level: 'principle',
    principle: 'Practice',
    description: 'Which practice task fits better?',
  },
  { id: 'feedback_tone', name: 'Feedback tone', level: 'principle', principle: 'Feedback', description: 'Which feedback is kinder?' },
];
const GOLD: Record<string, string> = {
  p1: 'WWWTW',
  p2: 'WWLWW',
  p3: 'WTTTT',
  p4: 'TLLLL',
  p5: 'LLLLL',
  p6: 'TWTLL',
  p7: 'LLWTT',
  p8: 'TTTWW',
};
const JUDGE: Record<string, string> = {
  p1: 'WWWWW',
  p2: 'WWWWW',
  p3: 'TTTTT',
  p4: 'LLLLL',
  p5: 'LLLLL',
  p6: 'LLLLL',
  p7: 'TTTTT',
  p8: 'WWWWW',
};

const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studyId = buildStudy(lead, dir, {
    name: 'Two models',
    reviewersPerItem: 1,
    catalog: CATALOG,
    items: Object.keys(GOLD).map((id) => ({ id, model: ['p1', 'p2', 'p3', 'p4'].includes(id) ? 'm1' : 'm2' })),
    annotations: Object.entries(GOLD).map(([item, l]) => ({ item, annotator: 'gold1', labels: labels(CRITERIA, l) })),
    judges: [{ name: 'j1', lines: Object.entries(JUDGE).map(([item, l]) => ({ item, labels: labels(CRITERIA, l) })) }],
  });
});

const rowOf = (r: ReturnType<typeof leaderboardReport>, model: string, grader: string) => {
  const row = r.rows.find((x) => x.model === model && x.grader === grader);
  if (!row) throw new Error(`no row ${model} / ${grader}`);
  return row;
};
const values = (rec: Record<string, { value: number | null }>) => Object.fromEntries(Object.entries(rec).map(([k, s]) => [k, s.value]));

describe('leaderboard', () => {
  it('lists one row per model and grader, ground truth first', () => {
    const r = leaderboardReport(lead, studyId, { bootstrap: 0 });
    expect(r.tiePolicy).toBe('half');
    expect(r.rows.map((x) => [x.model, x.grader, x.items])).toEqual([
      ['m1', GROUND_TRUTH_GRADER, 4],
      ['m1', 'j1', 4],
      ['m2', GROUND_TRUTH_GRADER, 4],
      ['m2', 'j1', 4],
    ]);
    expect(rowOf(r, 'm1', GROUND_TRUTH_GRADER).counts.practice_task).toEqual({ win: 1, tie: 1, loss: 2 });
  });

  it('counts a tie as half a win by default', () => {
    const r = leaderboardReport(lead, studyId, { tiePolicy: 'half', bootstrap: 200 });
    const m1 = rowOf(r, 'm1', GROUND_TRUTH_GRADER);
    // (W + T/2)/N: clarity 3.5/4, correctness 2.5/4, practice 1.5/4, feedback 2/4, overall 2.5/4.
    expect(values(m1.perCriterion)).toEqual({
      clarity: 0.875,
      correctness: 0.625,
      practice_task: 0.375,
      feedback_tone: 0.5,
      overall: 0.625,
    });
    expect(m1.generalLevelAcc.value).toBeCloseTo(0.75, 12);
    expect(values(m1.principleLevelAcc)).toEqual({ Practice: 0.375, Feedback: 0.5 });
    // ½ (0.75 + (0.375 + 0.5)/2) — not the mean over all criteria.
    expect(m1.overallAcc.value).toBeCloseTo(0.59375, 12);
    expect(m1.overallJudgement.value).toBeCloseTo(0.625, 12);
    const m2 = rowOf(r, 'm2', GROUND_TRUTH_GRADER);
    // clarity 1/4, correctness 1.5/4 → General 0.3125; Practice 0.5, Feedback 0.375 → Overall ½ (0.3125 + 0.4375).
    expect(m2.overallAcc.value).toBeCloseTo(0.375, 12);
    // The judge gives W/T/L 2/1/1 (m1) and 1/1/2 (m2) on every criterion.
    expect(rowOf(r, 'm1', 'j1').overallAcc.value).toBeCloseTo(0.625, 12);
    expect(rowOf(r, 'm2', 'j1').overallAcc.value).toBeCloseTo(0.375, 12);
    // Ties-as-½ rates are not proportions of items: bootstrap intervals.
    expect(m1.intervals.perCriterion.clarity.method).toBe('bootstrap');
    expect(m1.intervals.overallAcc.method).toBe('bootstrap');
  });

  it('counts a tie as no win under non_win', () => {
    const r = leaderboardReport(lead, studyId, { tiePolicy: 'non_win', bootstrap: 0 });
    const m1 = rowOf(r, 'm1', GROUND_TRUTH_GRADER);
    expect(values(m1.perCriterion)).toEqual({ clarity: 0.75, correctness: 0.5, practice_task: 0.25, feedback_tone: 0.25, overall: 0.5 });
    expect(m1.generalLevelAcc.value).toBeCloseTo(0.625, 12);
    expect(m1.overallAcc.value).toBeCloseTo(0.4375, 12);
    expect(values(rowOf(r, 'm2', GROUND_TRUTH_GRADER).perCriterion)).toEqual({
      clarity: 0,
      correctness: 0.25,
      practice_task: 0.25,
      feedback_tone: 0.25,
      overall: 0.25,
    });
    expect(rowOf(r, 'm1', 'j1').overallJudgement.value).toBe(0.5);
    // W/N is a proportion: Wilson.
    expect(m1.intervals.perCriterion.clarity.method).toBe('wilson');
  });

  it('leaves ties out under exclude', () => {
    const r = leaderboardReport(lead, studyId, { tiePolicy: 'exclude', bootstrap: 0 });
    const m1 = rowOf(r, 'm1', GROUND_TRUTH_GRADER);
    // W/(W + L): clarity 3/3, correctness 2/3, practice 1/3, feedback 1/2, overall 2/3.
    expect(m1.perCriterion.clarity.value).toBe(1);
    expect(m1.perCriterion.correctness.value).toBeCloseTo(2 / 3, 12);
    expect(m1.perCriterion.practice_task.value).toBeCloseTo(1 / 3, 12);
    expect(m1.perCriterion.feedback_tone.value).toBe(0.5);
    expect(m1.overallJudgement.value).toBeCloseTo(2 / 3, 12);
    // ½ (5/6 + (1/3 + 1/2)/2) = 15/24.
    expect(m1.overallAcc.value).toBeCloseTo(15 / 24, 12);
    expect(rowOf(r, 'm2', 'j1').overallJudgement.value).toBeCloseTo(1 / 3, 12);
  });

  it("gives each judge row the judge's alignment with ground truth on that model", () => {
    const r = leaderboardReport(lead, studyId, { bootstrap: 0 });
    // m1: each item has one mismatch (p1 feedback, p2 practice, p3 clarity, p4 clarity) → 16/20.
    expect(rowOf(r, 'm1', 'j1').alignmentRate.value).toBeCloseTo(0.8, 12);
    // m2: p5 5, p6 2, p7 2, p8 2 matches → 11/20.
    expect(rowOf(r, 'm2', 'j1').alignmentRate.value).toBeCloseTo(0.55, 12);
    expect(rowOf(r, 'm1', GROUND_TRUTH_GRADER).alignmentRate).toEqual({ value: null, reason: 'not_applicable' });
  });

  it('refuses an unknown tie policy', () => {
    expect(codeOf(() => leaderboardReport(lead, studyId, { tiePolicy: 'double' }))).toBe('invalid');
  });
});
