import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accuracy, classificationReport, classwiseAccuracy, contingencyTable, lenientClassificationReport, mergeLabels } from './index';

const RUBRIC = ['Yes', 'To some extent', 'No'];

describe('classification metrics', () => {
  // Gold uses all three classes; the judge never says "To some extent".
  const confusion = [
    [5, 0, 1],
    [2, 0, 1],
    [1, 0, 3],
  ];

  it('a class the judge never predicts: precision is empty_class by default and 0 in scikit-learn mode', () => {
    const strict = classificationReport(confusion, RUBRIC);
    expect(strict.perClass[1].precision).toEqual({ value: null, reason: 'empty_class' });
    expect(strict.perClass[1].recall.value).toBe(0);
    expect(strict.perClass[1].f1.value).toBe(0);
    expect(strict.macroPrecision.excluded).toBe(1);
    expect(strict.macroPrecision.value).toBeCloseTo((5 / 8 + 3 / 5) / 2, 12);

    const sk = classificationReport(confusion, RUBRIC, { zeroDivision: 'zero' });
    expect(sk.perClass[1].precision.value).toBe(0);
    expect(sk.macroPrecision.value).toBeCloseTo((5 / 8 + 0 + 3 / 5) / 3, 12);
  });

  it('a class absent from both labellings: F1 is absent_class and left out of macro-F1 unless zero mode', () => {
    const t = [
      [4, 0, 1],
      [0, 0, 0],
      [2, 0, 3],
    ];
    const r = classificationReport(t, RUBRIC);
    expect(r.perClass[1].f1).toEqual({ value: null, reason: 'absent_class' });
    expect(r.macroF1).toMatchObject({ included: 2, excluded: 1 });
    const f1Yes = (2 * 4) / (6 + 5);
    const f1No = (2 * 3) / (4 + 5);
    expect(r.macroF1.value).toBeCloseTo((f1Yes + f1No) / 2, 12);
    expect(classificationReport(t, RUBRIC, { zeroDivision: 'zero' }).macroF1.value).toBeCloseTo((f1Yes + f1No) / 3, 12);
  });

  it('macro-F1 is the mean of per-class F1, not the F1 of macro precision and recall', () => {
    const r = classificationReport(confusion, RUBRIC, { zeroDivision: 'zero' });
    const mean = r.perClass.reduce((s, c) => s + (c.f1.value as number), 0) / 3;
    expect(r.macroF1.value).toBeCloseTo(mean, 12);
    const p = r.macroPrecision.value as number;
    const rec = r.macroRecall.value as number;
    expect(r.macroF1.value).not.toBeCloseTo((2 * p * rec) / (p + rec), 6);
  });

  it('an empty matrix gives no_items for accuracy and weighted F1', () => {
    const zero = RUBRIC.map(() => RUBRIC.map(() => 0));
    const r = classificationReport(zero, RUBRIC);
    expect(r.accuracy).toEqual({ value: null, reason: 'no_items' });
    expect(r.weightedF1).toEqual({ value: null, reason: 'no_items' });
    expect(r.macroF1).toMatchObject({ value: null, reason: 'no_defined_values' });
    expect(accuracy(zero)).toEqual({ value: null, reason: 'no_items' });
  });

  it('merging Yes and To some extent adds up the cells in declared order', () => {
    const m = mergeLabels(confusion, RUBRIC, { 'To some extent': 'Yes' });
    expect(m.labels).toEqual(['Yes', 'No']);
    expect(m.confusion).toEqual([
      [7, 2],
      [1, 3],
    ]);
    expect(lenientClassificationReport(confusion, RUBRIC, { 'To some extent': 'Yes' }).accuracy.value).toBeCloseTo(10 / 13, 12);
  });

  it('class-wise accuracy is correct/predicted per judge class, empty_class when never predicted', () => {
    const c = classwiseAccuracy(confusion, RUBRIC);
    expect(c.map((x) => [x.correct, x.predicted])).toEqual([
      [5, 8],
      [0, 0],
      [3, 5],
    ]);
    expect(c[1].accuracy.reason).toBe('empty_class');
  });

  it('per-class counts add up and metrics are unchanged by permuting items', () => {
    const pair = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }));
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 60 }), (p) => {
        const t = contingencyTable(
          p.map((x) => x[0]),
          p.map((x) => x[1]),
          3,
        );
        const rev = contingencyTable(
          [...p].reverse().map((x) => x[0]),
          [...p].reverse().map((x) => x[1]),
          3,
        );
        const r = classificationReport(t, RUBRIC);
        expect(r.perClass.reduce((s, c) => s + c.support, 0)).toBe(p.length);
        expect(r.perClass.reduce((s, c) => s + c.predicted, 0)).toBe(p.length);
        expect(classificationReport(rev, RUBRIC)).toEqual(r);
        for (const c of r.perClass) {
          for (const s of [c.precision, c.recall, c.f1]) if (s.value !== null) expect(s.value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('rejects a label list that does not match the matrix', () => {
    expect(() => classificationReport(confusion, ['Yes', 'No'])).toThrow(/labels were declared/);
  });
});
