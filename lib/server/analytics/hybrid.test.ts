import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { hybridReport } from './hybrid';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';

/*
 * Padó (2025) worked example (STATS.md §2.8, Mistake Identification, 300 dialogues): the judge says "Yes" 281 times
 * (266 right) and "No" 19 times (8 right). Built as a pairwise study judged on `overall` only, with Yes → win and
 * No → lose; one annotator per item, whose labels are the ground truth.
 *
 *   ground truth  judge   items
 *   win           win      266
 *   lose          win       15
 *   lose          lose       8
 *   win           lose      11
 */
const GROUPS: [gold: 'win' | 'lose', judge: 'win' | 'lose', count: number][] = [
  ['win', 'win', 266],
  ['lose', 'win', 15],
  ['lose', 'lose', 8],
  ['win', 'lose', 11],
];
const CASES = GROUPS.flatMap(([gold, judge, count]) => Array.from({ length: count }, () => ({ gold, judge })));

const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const id = (k: number) => `pado-${String(k + 1).padStart(3, '0')}`;
  studyId = buildStudy(lead, dir, {
    name: 'Pado worked example',
    reviewersPerItem: 1,
    catalog: [],
    items: CASES.map((_, k) => ({ id: id(k), model: 'sonnet-tutor' })),
    annotations: CASES.map((c, k) => ({ item: id(k), annotator: 'expert', labels: { overall: c.gold } })),
    judges: [{ name: 'llm-judge', lines: CASES.map((c, k) => ({ item: id(k), labels: { overall: c.judge } })) }],
  });
});

const pct = (x: number | null) => (x === null ? null : (100 * x).toFixed(1));

describe("Padó's hybrid review plan", () => {
  it('reproduces the worked example: 95.0 % hybrid accuracy with 93.7 % of the effort saved', () => {
    const r = hybridReport(lead, studyId, { judge: 'llm-judge' });
    expect(r).toMatchObject({ criterion: 'overall', target: 0.95, n: 300, reviewed: 19, acceptedClass: 'win', reviewedClasses: ['lose'] });
    expect(pct(r.accJudge.value)).toBe('91.3');
    expect(r.classes.map((c) => [c.label, c.predicted, c.correct, pct(c.classwiseAccuracy.value), c.decision])).toEqual([
      ['lose', 19, 8, '42.1', 'review'],
      ['win', 281, 266, '94.7', 'accept'],
    ]);
    expect(r.unpredictedLabels).toEqual(['tie']);
    expect(pct(r.accHybrid.value)).toBe('95.0');
    expect(pct(r.effortSaved.value)).toBe('93.7');
    // (266 + 19)/300 = 285/300 is exactly the 95 % target: no extra reviews.
    expect(r.errorsToFix).toBe(0);
    expect(r.extraReviewsExpected).toBe(0);
    expect(r.unjudged).toBe(0);
  });

  it('plans extra random reviews of the accepted class for a higher target', () => {
    const r = hybridReport(lead, studyId, { judge: 'llm-judge', target: 0.97 });
    // ⌈0.97 · 300⌉ = 291 right needed, 285 now: 6 errors to find among the "win" predictions, whose error rate is
    // 15/281, so ⌈6 · 281/15⌉ = ⌈112.4⌉ = 113 more reviews are expected; worst case 266 + 6 = 272.
    expect(r.errorsToFix).toBe(6);
    expect(r.extraReviewsExpected).toBe(113);
    expect(r.extraReviewsWorstCase).toBe(272);
  });

  it('refuses a criterion the study does not have and a target above 1', () => {
    expect(codeOf(() => hybridReport(lead, studyId, { judge: 'llm-judge', criterion: 'clarity' }))).toBe('invalid');
    expect(codeOf(() => hybridReport(lead, studyId, { judge: 'llm-judge', target: 1.5 }))).toBe('invalid');
  });
});
