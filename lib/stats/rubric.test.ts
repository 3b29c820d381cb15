import { describe, expect, it } from 'vitest';
import { alignmentFromConfusion, desiredShare, desiredShareBy, rubricAlignment } from './rubric';

const LABELS = ['No', 'To some extent', 'Yes'];
const LENIENT = { 'To some extent': 'Yes' };

/** Gold and predicted label lists that realise a confusion matrix (rows gold, columns predicted). */
function pairsFrom(confusion: number[][], labels: string[]): { gold: string[]; predicted: string[] } {
  const gold: string[] = [];
  const predicted: string[] = [];
  confusion.forEach((row, h) =>
    row.forEach((count, j) => {
      for (let k = 0; k < count; k++) {
        gold.push(labels[h]);
        predicted.push(labels[j]);
      }
    }),
  );
  return { gold, predicted };
}

describe('rubricAlignment: a worked example', () => {
  // Gold No: judge 4 No, 1 TSE, 1 Yes; gold TSE: 1, 2, 3; gold Yes: 1, 1, 6. n = 20.
  const confusion = [
    [4, 1, 1],
    [1, 2, 3],
    [1, 1, 6],
  ];
  const { gold, predicted } = pairsFrom(confusion, LABELS);
  const r = rubricAlignment([...gold, null, 'Yes'], [...predicted, 'Yes', null], { labels: LABELS, lenient: LENIENT });

  it('strict: 12 of 20 agree; class-wise accuracy is the precision of each predicted label', () => {
    expect(r.n).toBe(20);
    expect(r.skipped).toBe(2);
    expect(r.agree).toBe(12);
    expect(r.alignmentRate.value).toBeCloseTo(0.6, 12);
    expect(r.confusion).toEqual(confusion);
    expect(r.classwise.map((c) => [c.label, c.predicted, c.correct, c.support])).toEqual([
      ['No', 6, 4, 6],
      ['To some extent', 4, 2, 6],
      ['Yes', 10, 6, 8],
    ]);
    expect(r.classwise.map((c) => c.accuracy.value)).toEqual([4 / 6, 2 / 4, 6 / 10]);
    expect(r.classwise.map((c) => c.recall.value)).toEqual([4 / 6, 2 / 6, 6 / 8]);
    // F1: No 8/12, TSE 4/10, Yes 12/18.
    expect(r.macroF1.value).toBeCloseTo((8 / 12 + 4 / 10 + 12 / 18) / 3, 12);
    // p_e = (6·6 + 6·4 + 8·10) / 400 = 0.35; κ = (0.6 − 0.35) / 0.65.
    expect(r.cohenKappa.value).toBeCloseTo(0.25 / 0.65, 12);
  });

  it('lenient: To some extent folded into Yes gives a 2×2 table with 16 of 20 agreeing', () => {
    const l = r.lenient!;
    expect(l.labels).toEqual(['No', 'Yes']);
    expect(l.confusion).toEqual([
      [4, 2],
      [2, 12],
    ]);
    expect(l.alignmentRate.value).toBeCloseTo(0.8, 12);
    expect(l.classwise.map((c) => c.accuracy.value)).toEqual([4 / 6, 12 / 14]);
    expect(l.macroF1.value).toBeCloseTo((8 / 12 + 24 / 28) / 2, 12);
    // p_e = (6·6 + 14·14) / 400 = 0.58.
    expect(l.cohenKappa.value).toBeCloseTo(0.22 / 0.42, 12);
  });

  it('keeps every declared label even when unused, and reports undefined values with a reason', () => {
    const never = rubricAlignment(['Yes', 'No'], ['Yes', 'Yes'], { labels: LABELS });
    expect(never.lenient).toBeNull();
    expect(never.confusion).toEqual([
      [0, 0, 1],
      [0, 0, 0],
      [0, 0, 1],
    ]);
    expect(never.classwise[0].accuracy).toEqual({ value: null, reason: 'empty_class' });
    expect(never.classwise[1].recall).toEqual({ value: null, reason: 'empty_class' });
    const none = rubricAlignment([null], ['Yes'], { labels: LABELS });
    expect(none.alignmentRate).toEqual({ value: null, reason: 'no_items' });
    expect(none.cohenKappa.value).toBeNull();
    expect(() => rubricAlignment(['Maybe'], ['Yes'], { labels: LABELS })).toThrow('not in the declared label set');
    expect(() => rubricAlignment(['Yes'], [], { labels: LABELS })).toThrow('differ in length');
  });

  it('alignmentFromConfusion agrees with rubricAlignment', () => {
    const { lenient: _l, skipped: _s, ...strict } = r;
    expect(alignmentFromConfusion(confusion, LABELS)).toEqual(strict);
  });
});

describe('desiredShare', () => {
  it('counts the desired label, folding lenient labels first and skipping missing ones', () => {
    const labels = ['Yes', 'To some extent', 'No', null, 'Yes'];
    expect(desiredShare(labels, 'Yes')).toEqual({ n: 4, desired: 2, share: { value: 0.5 } });
    expect(desiredShare(labels, 'Yes', { lenient: LENIENT })).toEqual({ n: 4, desired: 3, share: { value: 0.75 } });
    expect(desiredShare([null], 'Yes').share).toEqual({ value: null, reason: 'no_items' });
  });

  it('per group, in order of first appearance', () => {
    const shares = desiredShareBy(['GPT4', 'Expert', 'GPT4'], ['Yes', 'No', 'No'], 'Yes');
    expect([...shares.keys()]).toEqual(['GPT4', 'Expert']);
    expect(shares.get('GPT4')!.share.value).toBe(0.5);
  });
});
