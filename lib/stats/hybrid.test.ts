import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HybridPlan, encodeLabels, hybridPlanFromConfusion, hybridReviewPlan, hybridReviewQueue } from './index';

const pct = (x: number | null) => (100 * (x as number)).toFixed(1);

describe('hybrid review plan (Padó 2025)', () => {
  it('reproduces the worked example reconstructed from Padó (2025) Tables 3–4 (STATS.md §2.8)', () => {
    // Mistake Identification, 300 dialogues: 281 "Yes" predictions (266 right), 19 "No" (8 right).
    const plan = hybridReviewPlan([
      { label: 'Yes', predicted: 281, correct: 266 },
      { label: 'No', predicted: 19, correct: 8 },
    ]);
    expect(pct(plan.accJudge.value)).toBe('91.3');
    expect(pct(plan.classes[0].accuracy.value)).toBe('94.7');
    expect(pct(plan.classes[1].accuracy.value)).toBe('42.1');
    expect(plan.acceptedClass).toBe('Yes');
    expect(plan.reviewedClasses).toEqual(['No']);
    expect(plan.reviewed).toBe(19);
    expect(plan.accHybrid.value).toBeCloseTo(285 / 300, 12);
    expect(pct(plan.accHybrid.value)).toBe('95.0');
    expect(pct(plan.effortSaved.value)).toBe('93.7');
    // 95.0 % already meets the default target: no extra reviews are planned.
    expect(plan.target).toBe(0.95);
    expect(plan.errorsToFix).toBe(0);
    expect(plan.extraReviewsExpected).toBe(0);
    expect(plan.effortSavedExpectedAfter).toEqual(plan.effortSaved);
  });

  it('reproduces the synthetic worked example of STATS.md §2.8 (90 % / 70 % class-wise accuracy)', () => {
    const plan = hybridReviewPlan([
      { label: 'correct', predicted: 70, correct: 63 },
      { label: 'incorrect', predicted: 30, correct: 21 },
    ]);
    expect(plan.accJudge.value).toBeCloseTo(0.84, 12);
    expect(plan.accHybrid.value).toBeCloseTo(0.93, 12);
    expect(plan.effortSaved.value).toBeCloseTo(0.7, 12);
    expect(plan.errorsToFix).toBe(2);
    expect(plan.extraReviewsExpected).toBe(20);
    expect(plan.accExpectedAfter.value).toBeCloseTo(0.95, 12);
    expect(plan.effortSavedExpectedAfter.value).toBeCloseTo(0.5, 12);
    expect(plan.extraReviewsWorstCase).toBe(65);
    expect(plan.effortSavedWorstCase.value).toBeCloseTo(0.05, 12);
  });

  it('the plan from a confusion matrix uses column totals as predictions and the diagonal as correct', () => {
    // Rows = gold, columns = judge (Yes, No).
    const plan = hybridPlanFromConfusion(
      [
        [266, 11],
        [15, 8],
      ],
      ['Yes', 'No'],
    );
    expect(plan.classes.map((c) => [c.predicted, c.correct])).toEqual([
      [281, 266],
      [19, 8],
    ]);
    expect(pct(plan.accHybrid.value)).toBe('95.0');
  });

  it('never-predicted classes are neither accepted nor reviewed; no predictions at all gives no_items', () => {
    const plan = hybridReviewPlan([
      { label: 'Yes', predicted: 10, correct: 9 },
      { label: 'To some extent', predicted: 0, correct: 0 },
      { label: 'No', predicted: 5, correct: 5 },
    ]);
    expect(plan.classes.map((c) => c.decision)).toEqual(['review', 'none', 'accept']);
    expect(plan.classes[1].accuracy).toEqual({ value: null, reason: 'empty_class' });
    const empty = hybridReviewPlan([{ label: 'Yes', predicted: 0, correct: 0 }]);
    expect(empty.acceptedClass).toBeNull();
    expect(empty.accHybrid).toEqual({ value: null, reason: 'no_items' });
  });

  it('on equal class-wise accuracy the larger class is accepted (more effort saved)', () => {
    const plan = hybridReviewPlan([
      { label: 'A', predicted: 10, correct: 8 },
      { label: 'B', predicted: 20, correct: 16 },
    ]);
    expect(plan.acceptedClass).toBe('B');
  });

  it('invariants: hybrid ≥ judge alone, the expected plan reaches the target, sizes stay feasible', () => {
    const tally = fc.integer({ min: 0, max: 200 }).chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 0, max: p })));
    fc.assert(
      fc.property(fc.array(tally, { minLength: 1, maxLength: 4 }), fc.double({ min: 0.5, max: 1, noNaN: true }), (ts, target) => {
        const plan = hybridReviewPlan(
          ts.map(([predicted, correct], i) => ({ label: `c${i}`, predicted, correct })),
          { target },
        );
        if (plan.accJudge.value === null) return;
        const accepted = plan.classes.find((c) => c.decision === 'accept');
        if (!accepted) throw new Error('a class must be accepted when there are predictions');
        expect(plan.accHybrid.value as number).toBeGreaterThanOrEqual((plan.accJudge.value as number) - 1e-12);
        expect(plan.extraReviewsExpected).toBeLessThanOrEqual(accepted.predicted);
        expect(plan.extraReviewsWorstCase).toBeLessThanOrEqual(accepted.predicted);
        expect(plan.extraReviewsExpected).toBeLessThanOrEqual(plan.extraReviewsWorstCase);
        if (plan.errorsToFix > 0) expect(plan.accExpectedAfter.value as number).toBeGreaterThanOrEqual(target - 1e-9);
        for (const s of [plan.effortSaved, plan.effortSavedExpectedAfter, plan.effortSavedWorstCase]) {
          expect(s.value as number).toBeGreaterThanOrEqual(-1e-12);
          expect(s.value as number).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('rejects impossible tallies and targets', () => {
    expect(() => hybridReviewPlan([{ label: 'Yes', predicted: 3, correct: 4 }])).toThrow(RangeError);
    expect(() => hybridReviewPlan([{ label: 'Yes', predicted: 3, correct: 1 }], { target: 1.2 })).toThrow(RangeError);
  });
});

describe('hybrid review queue', () => {
  const labels = ['Yes', 'No'];
  const predictions = encodeLabels(['Yes', 'No', 'Yes', 'Yes', 'No', 'Yes', 'Yes', 'Yes', 'Yes', 'Yes'], labels);
  const plan: HybridPlan = hybridReviewPlan(
    [
      { label: 'Yes', predicted: 8, correct: 6 },
      { label: 'No', predicted: 2, correct: 1 },
    ],
    { target: 0.9 },
  );

  it('queues every item of the reviewed classes plus the planned random sample of the accepted class', () => {
    expect(plan.extraReviewsExpected).toBe(4);
    const q = hybridReviewQueue(predictions, labels, plan, { seed: 1 });
    expect(Array.from(q.review)).toEqual([1, 4]);
    expect(q.extra.length).toBe(4);
    expect(new Set(q.extra).size).toBe(4);
    for (const i of q.extra) expect(predictions[i]).toBe(0);
    expect(hybridReviewQueue(predictions, labels, plan, { seed: 1 })).toEqual(q);
    expect(hybridReviewQueue(predictions, labels, plan, { seed: 1, extra: 'none' }).extra.length).toBe(0);
    expect(hybridReviewQueue(predictions, labels, plan, { seed: 1, extra: 'worst_case' }).extra.length).toBe(plan.extraReviewsWorstCase);
  });
});
