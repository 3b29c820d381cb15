import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '@/test/analytics-fixtures';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import { CATALOG, MI, N, Y, lead, studyId, useReportsStudy } from '@/test/rubric-fixtures-study';
import { type HybridOptions, hybridReport } from './hybrid';

/** The report of a rubric study (its registry name: `rubric-hybrid`). */
const rubricPlan = (actor: Parameters<typeof hybridReport>[0], id: number, o: HybridOptions) => hybridReport(actor, id, o, 'rubric');

useReportsStudy();

describe('the hybrid report of a rubric study', () => {
  it('plans per dimension and per tutor, strict or lenient', () => {
    const r = rubricPlan(lead, studyId, { judge: 'gpt', criterion: MI, lenient: true });
    // Lenient MI: gold Y Y N Y Y N, judge Y Y Y Y Y N → "No" 1 of 1 right, "Yes" 4 of 5.
    expect(r).toMatchObject({ criterion: MI, lenient: true, labels: ['No', 'Yes'], n: 6, acceptedClass: 'No', reviewed: 5 });
    const [t1, t2] = r.byModel;
    // t1: i1 Y/Y, i2 Y/Y, i4 N/Y → accept Yes (2 of 3), nothing reviewed; ⌈0.95 · 3⌉ = 3 right needed, 2 now: one error
    // to find at error rate 1/3 → ⌈1 · 3/1⌉ = 3 extra reviews.
    expect(t1).toMatchObject({ model: 't1', n: 3, acceptedClass: 'Yes', reviewed: 0, errorsToFix: 1, extraReviewsExpected: 3 });
    // t2: i5 Y/Y, i6 Y/Y, i8 N/N → both classes right every time; the larger ("Yes") is accepted.
    expect(t2).toMatchObject({ model: 't2', n: 3, acceptedClass: 'Yes', reviewed: 1, errorsToFix: 0 });
    expect(t2.accHybrid.value).toBe(1);
    expect(r.byCriterion.map((c) => [c.criterion, c.lenient, c.n])).toEqual([
      [MI, true, 6],
      ['leak', false, 5],
    ]);
    const strict = rubricPlan(lead, studyId, { judge: 'gpt', criterion: MI });
    expect(strict.labels).toEqual(['No', 'To some extent', 'Yes']);
    expect(strict.classes.map((c) => [c.label, c.predicted, c.correct])).toEqual([
      ['No', 1, 1],
      ['To some extent', 1, 0],
      ['Yes', 4, 2],
    ]);
  });

  it('refuses an unknown dimension and a lenient plan without a map', () => {
    expect(codeOf(() => rubricPlan(lead, studyId, { judge: 'gpt', criterion: 'clarity' }))).toBe('invalid');
    expect(codeOf(() => rubricPlan(lead, studyId, { judge: 'gpt', criterion: 'leak', lenient: true }))).toBe('invalid');
  });
});

/*
 * Padó (2025) worked example (STATS.md §2.8, Mistake Identification, 300 dialogues), as in the pairwise hybrid test,
 * now on a rubric dimension with its lenient map and split over two tutors:
 *
 *   tutor  ground truth  judge  replies
 *   A      Yes           Yes    200
 *   A      No            Yes     15
 *   B      Yes           Yes     66
 *   B      No            No       8
 *   B      Yes           No      11
 */
describe("Padó's worked example on a rubric study", () => {
  let pado: number;
  beforeAll(() => {
    const groups: [string, string, string, number][] = [
      ['A', Y, Y, 200],
      ['A', N, Y, 15],
      ['B', Y, Y, 66],
      ['B', N, N, 8],
      ['B', Y, N, 11],
    ];
    const cases = groups.flatMap(([tutor, gold, judge, count]) => Array.from({ length: count }, () => ({ tutor, gold, judge })));
    const id = (k: number) => `pado-${k}`;
    pado = buildRubricStudy(lead, {
      name: 'Pado',
      catalog: [CATALOG[0]],
      reviewersPerItem: 1,
      items: cases.map((c, k) => ({ id: id(k), source: c.tutor })),
      annotations: cases.map((c, k) => ({ item: id(k), annotator: 'expert', labels: { [MI]: c.gold } })),
      judges: [{ name: 'llm', lines: cases.map((c, k) => ({ item: id(k), labels: { [MI]: c.judge } })) }],
    });
  });
  const pct = (x: number | null) => (x === null ? null : (100 * x).toFixed(1));

  it('reproduces 95.0 % hybrid accuracy with 93.7 % of the effort saved, and the per-tutor plans', () => {
    const r = rubricPlan(lead, pado, { judge: 'llm', lenient: true });
    expect(r).toMatchObject({ n: 300, acceptedClass: 'Yes', reviewedClasses: ['No'], reviewed: 19, errorsToFix: 0 });
    expect([pct(r.accJudge.value), pct(r.accHybrid.value), pct(r.effortSaved.value)]).toEqual(['91.3', '95.0', '93.7']);
    expect(r.classes.map((c) => [c.label, c.predicted, c.correct, pct(c.classwiseAccuracy.value)])).toEqual([
      ['No', 19, 8, '42.1'],
      ['Yes', 281, 266, '94.7'],
    ]);
    const [a, b] = r.byModel;
    // A: "Yes" 200 of 215 right, nothing to review; ⌈0.95 · 215⌉ = 205 needed → 5 errors at rate 15/215 → ⌈71.7⌉ = 72.
    expect(a).toMatchObject({ model: 'A', n: 215, acceptedClass: 'Yes', reviewed: 0, errorsToFix: 5, extraReviewsExpected: 72 });
    expect(pct(a.accJudge.value)).toBe('93.0');
    // B: "Yes" 66 of 66, "No" 8 of 19 → review the 19 "No": (66 + 19)/85 right, 66/85 of the effort saved.
    expect(b).toMatchObject({ model: 'B', n: 85, acceptedClass: 'Yes', reviewed: 19, errorsToFix: 0 });
    expect([pct(b.accHybrid.value), pct(b.effortSaved.value)]).toEqual(['100.0', '77.6']);
    // The strict plan sees the same classes here (nobody said "To some extent"), which stays unpredicted.
    const strict = rubricPlan(lead, pado, { judge: 'llm', target: 0.97 });
    expect(strict.unpredictedLabels).toEqual(['To some extent']);
    expect([strict.errorsToFix, strict.extraReviewsExpected, strict.extraReviewsWorstCase]).toEqual([6, 113, 272]);
  });
});
