import { describe, expect, it } from 'vitest';
import { errorBoundedAcceptance } from './error-bounded-acceptance';

/* What the vectors leave out: a stratum without calibration items inside a cumulative fixed sequence. */
describe('errorBoundedAcceptance, cumulative fixed sequence', () => {
  const strata = [
    { name: 'conf 1.0', n: 50, errors: 1, pool: 500 },
    { name: 'conf [0.8,1.0)', n: 0, errors: 0, pool: 300 },
    { name: 'conf [0.6,0.8)', n: 60, errors: 2, pool: 250 },
  ];
  const r = errorBoundedAcceptance(strata, { epsilon: 0.15, delta: 0.05, method: 'fixed_sequence', hypotheses: 'cumulative' });

  it('never accepts a stratum with no calibration item, and stops the sequence there', () => {
    expect(r.accepted).toEqual(['conf 1.0']);
    expect(r.cumulativeSteps!.map((s) => [s.through, s.pValue < 0.05])).toEqual([
      ['conf 1.0', true],
      ['conf [0.8,1.0)', false],
    ]);
    expect(r.perStratum[2].alphaUsed).toEqual({ value: null, reason: 'not_tested' });
  });

  it('keeps every figure of the effort defined (no 0/0 from the empty stratum)', () => {
    expect(r.judgeLabelledItems).toBe(450);
    expect(r.estimatedJudgeErrors).toBeCloseTo(9, 12);
    expect(r.coverage.value).toBeCloseTo(450 / 940, 12);
  });
});
