import { describe, expect, it } from 'vitest';
import { PAIRWISE_SCALE, combineRuns, combineVerdicts, type LabelScale, type Verdict } from './combine';

const MRB: LabelScale = { labels: ['No', 'To some extent', 'Yes'], desired: 'Yes' };
const OK: LabelScale = { labels: ['REJECT', 'OK'], desired: 'OK' };

describe('combineVerdicts', () => {
  it('all: desired only when every run gave it, else the worst label given', () => {
    expect(combineVerdicts(['Yes', 'Yes', 'Yes'], MRB, 'all')).toEqual({ label: 'Yes' });
    expect(combineVerdicts(['Yes', 'To some extent', 'Yes'], MRB, 'all')).toEqual({ label: 'To some extent' });
    expect(combineVerdicts(['Yes', 'To some extent', 'No'], MRB, 'all')).toEqual({ label: 'No' });
    expect(combineVerdicts(['OK', 'REJECT'], OK, 'all')).toEqual({ label: 'REJECT' });
  });

  it('any: desired when one run gave it, else the best label given', () => {
    expect(combineVerdicts(['No', 'Yes', 'No'], MRB, 'any')).toEqual({ label: 'Yes' });
    expect(combineVerdicts(['No', 'To some extent', 'No'], MRB, 'any')).toEqual({ label: 'To some extent' });
    expect(combineVerdicts(['REJECT', 'REJECT'], OK, 'any')).toEqual({ label: 'REJECT' });
  });

  it('all never returns the desired label for a pair some run did not give it, even when desired is not the best label', () => {
    const middle: LabelScale = { labels: ['too hard', 'too easy', 'right'], desired: 'too easy' };
    expect(combineVerdicts(['too easy', 'right'], middle, 'all')).toEqual({ label: 'right' });
    expect(combineVerdicts(['too easy', 'right', 'too hard'], middle, 'all')).toEqual({ label: 'too hard' });
    expect(combineVerdicts(['right', 'too hard'], middle, 'any')).toEqual({ label: 'right' });
    expect(combineVerdicts(['right', 'too easy'], middle, 'any')).toEqual({ label: 'too easy' });
  });

  it('majority: plurality wins, a tie for the top count is unjudged', () => {
    expect(combineVerdicts(['Yes', 'No', 'Yes'], MRB, 'majority')).toEqual({ label: 'Yes' });
    expect(combineVerdicts(['Yes', 'Yes', 'No', 'To some extent'], MRB, 'majority')).toEqual({ label: 'Yes' });
    expect(combineVerdicts(['Yes', 'No'], MRB, 'majority')).toEqual({ label: null, reason: 'tie' });
    expect(combineVerdicts(['Yes', 'No', 'To some extent'], MRB, 'majority')).toEqual({ label: null, reason: 'tie' });
    expect(combineVerdicts(['win', 'win', 'tie'], PAIRWISE_SCALE, 'majority')).toEqual({ label: 'win' });
  });

  it('missing verdicts: unjudged by default, combined over the rest on request', () => {
    expect(combineVerdicts(['Yes', null, 'Yes'], MRB, 'all')).toEqual({ label: null, reason: 'missing' });
    expect(combineVerdicts(['Yes', null, 'Yes'], MRB, 'all', { missing: 'ignore' })).toEqual({ label: 'Yes' });
    expect(combineVerdicts(['Yes', undefined, 'No'], MRB, 'majority', { missing: 'ignore' })).toEqual({ label: null, reason: 'tie' });
    expect(combineVerdicts([null, null], MRB, 'any')).toEqual({ label: null, reason: 'no_verdicts' });
  });

  it('refuses all / any on pairwise labels, and labels outside the scale', () => {
    expect(() => combineVerdicts(['win', 'lose'], PAIRWISE_SCALE, 'all')).toThrow(
      'rule "all" needs a desired label, and this dimension (lose < tie < win) has none; use "majority"',
    );
    expect(() => combineVerdicts(['win'], PAIRWISE_SCALE, 'any')).toThrow('needs a desired label');
    expect(() => combineVerdicts(['Maybe'], MRB, 'majority')).toThrow('label "Maybe" is not one of No, To some extent, Yes');
    expect(() => combineVerdicts(['Yes'], { labels: ['No', 'Yes'], desired: 'Sure' }, 'all')).toThrow(
      'desired label "Sure" is not in the label set',
    );
  });
});

describe('combineRuns', () => {
  const scales = new Map([
    ['leakage', OK],
    ['helpful', OK],
  ]);
  const v = (item: string, dimension: string, label: string): Verdict => ({ item, dimension, label });
  const judgeA = [v('c1', 'leakage', 'OK'), v('c1', 'helpful', 'OK'), v('c2', 'leakage', 'OK'), v('c3', 'leakage', 'REJECT')];
  const judgeB = [v('c1', 'leakage', 'OK'), v('c1', 'helpful', 'REJECT'), v('c2', 'leakage', 'REJECT'), v('c3', 'leakage', 'REJECT')];
  const judgeC = [v('c1', 'leakage', 'OK'), v('c1', 'helpful', 'OK'), v('c3', 'leakage', 'OK')];

  it('all over three judges: passes only what every judge passed; the item judge C skipped is unjudged', () => {
    const r = combineRuns([judgeA, judgeB, judgeC], scales, 'all');
    expect(r.verdicts).toEqual([
      { item: 'c1', dimension: 'leakage', label: 'OK', verdicts: 3 },
      { item: 'c1', dimension: 'helpful', label: 'REJECT', verdicts: 3 },
      { item: 'c3', dimension: 'leakage', label: 'REJECT', verdicts: 3 },
    ]);
    expect(r.unjudged).toEqual([{ item: 'c2', dimension: 'leakage', reason: 'missing', labels: ['OK', 'REJECT', null] }]);
    expect(r.counts).toEqual({ pairs: 4, combined: 3, tie: 0, missing: 1 });
  });

  it('majority with a missing verdict ignored: a two-way split is a counted tie', () => {
    const r = combineRuns([judgeA, judgeB, judgeC], scales, 'majority', { missing: 'ignore' });
    expect(r.unjudged).toEqual([{ item: 'c2', dimension: 'leakage', reason: 'tie', labels: ['OK', 'REJECT', null] }]);
    expect(r.verdicts.find((x) => x.item === 'c3')).toEqual({ item: 'c3', dimension: 'leakage', label: 'REJECT', verdicts: 3 });
    expect(r.counts).toEqual({ pairs: 4, combined: 3, tie: 1, missing: 0 });
  });

  it('any over samples of one run', () => {
    const r = combineRuns([judgeA, judgeB], scales, 'any');
    expect(r.verdicts.map((x) => `${x.item}.${x.dimension}=${x.label}`)).toEqual([
      'c1.leakage=OK',
      'c1.helpful=OK',
      'c2.leakage=OK',
      'c3.leakage=REJECT',
    ]);
  });

  it('pairwise runs: majority with one scale for every criterion; all is refused', () => {
    const runs = [
      [v('p1', 'overall', 'win'), v('p2', 'overall', 'tie')],
      [v('p1', 'overall', 'win'), v('p2', 'overall', 'lose')],
      [v('p1', 'overall', 'lose'), v('p2', 'overall', 'win')],
    ];
    const r = combineRuns(runs, PAIRWISE_SCALE, 'majority');
    expect(r.verdicts).toEqual([{ item: 'p1', dimension: 'overall', label: 'win', verdicts: 3 }]);
    expect(r.counts.tie).toBe(1);
    expect(() => combineRuns(runs, PAIRWISE_SCALE, 'all')).toThrow(
      'rule "all" needs a desired label, and these labels (lose < tie < win) has none',
    );
  });

  it('refuses two verdicts of one run for the same pair, and dimensions without a scale', () => {
    expect(() => combineRuns([[v('c1', 'leakage', 'OK'), v('c1', 'leakage', 'OK')]], scales, 'all')).toThrow(
      'run 1 has two verdicts for item "c1", dimension "leakage"; pass each sample as a run of its own',
    );
    expect(() => combineRuns([[v('c1', 'tone', 'OK')]], scales, 'all')).toThrow('no label set was given for dimension "tone"');
  });
});
