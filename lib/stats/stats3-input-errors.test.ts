import { describe, expect, it } from 'vitest';
import { activeMean, tuneTau } from './active-inference';
import { annotatorQuality } from './annotator-quality';
import { binomialErrorBound } from './binomial-bound';
import { calibration } from './calibration';
import { dawidSkene } from './dawid-skene';
import { errorBoundedAcceptance } from './error-bounded-acceptance';
import { mace } from './mace';

/* The input errors of STATS-3 §1.3 throw: they are bugs in the caller, not properties of the data. */
const base = { labels: ['No', 'Yes'], annotators: ['A', 'B'], items: ['x1', 'x2'] };

describe('STATS-3 input errors', () => {
  it('an item with no label is refused by Dawid–Skene and MACE', () => {
    const data = { ...base, annotations: [['x1', 'A', 'Yes']] as const };
    expect(() => dawidSkene(data)).toThrow(/item x2 has no label/);
    expect(() => mace(data)).toThrow(/item x2 has no label/);
  });

  it('two labels from one annotator on one item: allowed by Dawid–Skene (the 1979 data has them), refused by MACE', () => {
    const data = {
      ...base,
      annotations: [
        ['x1', 'A', 'Yes'],
        ['x1', 'A', 'No'],
        ['x2', 'B', 'No'],
      ] as const,
    };
    expect(dawidSkene(data).converged).toBe(true);
    expect(() => mace(data)).toThrow(/labelled item x1 twice/);
  });

  it('a label outside the declared set is refused everywhere labels come in', () => {
    const data = {
      ...base,
      annotations: [
        ['x1', 'A', 'Maybe'],
        ['x2', 'B', 'No'],
      ] as const,
    };
    expect(() => dawidSkene(data)).toThrow(/not in the declared set/);
    expect(() => mace(data)).toThrow(/not in the declared set/);
    expect(() =>
      annotatorQuality({ labels: ['No', 'Yes'], annotators: ['A'], ratings: [['Maybe']], gold: [null], adjudicated: [null] }),
    ).toThrow(/not in the declared set/);
    expect(() => calibration({ labels: ['No', 'Yes'], gold: ['Yes'], predicted: ['Maybe'], confidence: [0.5] })).toThrow(
      /not in the declared set/,
    );
  });

  it('a confidence outside [0, 1] or an item with no sample is refused by the calibration', () => {
    expect(() => calibration({ labels: ['No', 'Yes'], gold: ['Yes'], predicted: ['Yes'], confidence: [1.2] })).toThrow(/outside \[0, 1\]/);
    expect(() => calibration({ labels: ['No', 'Yes'], gold: ['Yes'], samples: [[]] })).toThrow(/no sample/);
  });

  it('a labelling probability of 0 is refused: τ = 0 leaves an item that no design can label', () => {
    const input = { yhat: [1, 0.5], budget: 0.5, tau: 0, xiActive: [0, 1], xiUniform: [0, 1], y: [null, 1] };
    expect(() => activeMean(input)).toThrow(/labelling probability 0/);
    expect(activeMean({ ...input, tau: 0.1 }).pi[0]).toBeCloseTo(0.05, 15);
  });

  it('a labelled item without its label is refused rather than read as 0', () => {
    expect(() => activeMean({ yhat: [0.2, 0.5], budget: 0.5, tau: 0.5, xiActive: [1, 1], xiUniform: [0, 0], y: [null, 1] })).toThrow(
      /item 0 is labelled/,
    );
  });

  it('errors > n or n > pool are refused by the acceptance', () => {
    const opts = { epsilon: 0.1, delta: 0.05, method: 'bonferroni' } as const;
    expect(() => errorBoundedAcceptance([{ name: 'a', n: 5, errors: 6, pool: 10 }], opts)).toThrow(/errors ≤ n ≤ pool/);
    expect(() => errorBoundedAcceptance([{ name: 'a', n: 20, errors: 1, pool: 10 }], opts)).toThrow(/errors ≤ n ≤ pool/);
    expect(() => binomialErrorBound(3, 2, 0.1, 0.05)).toThrow(/errors ≤ n/);
    expect(() => errorBoundedAcceptance([{ name: 'a', n: 5, errors: 1, pool: 10 }], { ...opts, hypotheses: 'cumulative' })).toThrow(
      /cumulative hypotheses need fixed_sequence/,
    );
  });

  it('an iteration cap below 1 is refused, so EM always reports the parameters of an iteration it ran', () => {
    const data = {
      ...base,
      annotations: [
        ['x1', 'A', 'Yes'],
        ['x2', 'B', 'No'],
      ] as const,
    };
    expect(() => dawidSkene(data, { maxIter: 0 })).toThrow(/max_iter/);
    expect(() => mace(data, { maxIter: 0 })).toThrow(/max_iter/);
  });

  it('a τ grid of one point is that point, as numpy.linspace gives it', () => {
    const r = tuneTau([0.2, 0.7], [0, 1], 0.5, { start: 0.3, stop: 0.9, num: 1 });
    expect(r.grid).toEqual([0.3]);
    expect(r.tau).toBe(0.3);
  });
});
