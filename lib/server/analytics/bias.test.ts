import { describe, expect, it } from 'vitest';
import { lengthBias } from '@/lib/stats';
import { type BiasSource, judgeCalibrations, lengthFits } from './bias';
import { judgeCalibration, judgeCalibrationFromConfidence } from './calibration';
import { certStat } from './corrected-leaderboard';
import { GROUND_TRUTH_GRADER } from './leaderboard';

/*
 * The bias report's shared core on a hand-made study in its kind-neutral layout: two criteria with label sets of
 * their own, four items, codes criterion-major. Which items each grader's length fit reads, what outcome it is fed
 * and in which order the rows come are worked out by hand; the figures are lib/stats' on the same inputs.
 */

const n = 4;
// Criterion "a" is pairwise-like (lose, tie, win), "b" has two labels of which "Yes" is the one that counts.
const criteria = [
  { id: 'a', labels: ['lose', 'tie', 'win'] },
  { id: 'b', labels: ['No', 'Yes'] },
];
// Item 1 has no text to measure; −1 is no label.
const lengths = [10, NaN, 30, 40];
const gold = Int8Array.from([2, 0, -1, 0, /* b */ 1, 1, 0, -1]);
const verdict = Int8Array.from([2, 2, 0, 1, /* b */ 0, 1, 1, 1]);
const second = Int8Array.from([2, 0, 0, 1, /* b */ 1, 1, 1, 0]);
const noConfidence = new Float64Array(2 * n).fill(NaN);
const confidence = Float64Array.from([0.9, 0.6, NaN, 0.7, /* b */ NaN, NaN, NaN, NaN]);

const source = (runs: BiasSource['runs']): BiasSource => ({
  criteria,
  n,
  gold,
  runs,
  lengths,
  // On "b", Yes is a win and No a loss; on "a" the code is the outcome.
  outcome: (c, code) => (c === 0 ? code : code === 1 ? 2 : 0),
});

describe('the length fits of the bias core', () => {
  it('fits every grader on every criterion, ground truth first, on the items with a label and a length only', () => {
    const src = source([{ name: 'j', verdict, confidence: noConfidence, samples: null }]);
    const fits = lengthFits(src, { counts: (_, outcomes) => ({ fed: outcomes.join(',') }), bin: (b) => ({ wins: b.wins }) });
    expect(fits.map((f) => [f.grader, f.criterion, f.n, f.fed])).toEqual([
      [GROUND_TRUTH_GRADER, 'a', 2, '2,0'],
      [GROUND_TRUTH_GRADER, 'b', 2, '2,0'],
      ['j', 'a', 3, '2,0,1'],
      ['j', 'b', 3, '0,2,2'],
    ]);
    // The figures are the fit's on the lengths of the items read: j on "b" reads items 0, 2 and 3.
    const r = lengthBias([10, 30, 40], [0, 2, 2]);
    const jb = fits[3];
    expect(jb.slope).toEqual(certStat(r.slope));
    expect(jb.pValue).toEqual(certStat(r.pValue));
    expect(jb.bins?.map((b) => [b.bin, b.lowerEdge, b.upperEdge, b.n, b.wins])).toEqual(
      r.bins?.map((b) => [b.bin, b.lowerEdge, b.upperEdge, b.n, b.wins]),
    );
  });

  it('leaves out a criterion no grader can be measured on', () => {
    const src = { ...source([]), lengths: [NaN, NaN, NaN, NaN] };
    expect(lengthFits(src, { counts: () => ({}), bin: () => ({}) })).toEqual([]);
  });
});

describe('the calibration of the bias core', () => {
  it("reads a run's own confidences first, else its several verdicts, per criterion with that criterion's labels", () => {
    const samples = (at: number) => [verdict[at], second[at]];
    const src = source([
      { name: 'sampled', verdict, confidence: noConfidence, samples },
      { name: 'confident', verdict, confidence, samples },
      { name: 'single', verdict, confidence: noConfidence, samples: null },
    ]);
    const { calibration, uncalibrated } = judgeCalibrations(src);
    const goldOf = (c: number) => gold.subarray(c * n, c * n + n);
    expect(calibration).toEqual([
      judgeCalibration('sampled', 'a', criteria[0].labels, goldOf(0), (i) => samples(i)),
      judgeCalibration('sampled', 'b', criteria[1].labels, goldOf(1), (i) => samples(n + i)),
      // Its confidences on "a"; none on "b", where its two verdicts per item measure it.
      judgeCalibrationFromConfidence('confident', 'a', criteria[0].labels, goldOf(0), verdict.subarray(0, n), confidence.subarray(0, n)),
      judgeCalibration('confident', 'b', criteria[1].labels, goldOf(1), (i) => samples(n + i)),
    ]);
    expect(calibration.map((c) => [c.judge, c.criterion, c.source, c.n])).toEqual([
      ['sampled', 'a', 'samples', 3],
      ['sampled', 'b', 'samples', 3],
      ['confident', 'a', 'confidence', 3],
      ['confident', 'b', 'samples', 3],
    ]);
    // One verdict per item and no confidence: named, never measured.
    expect(uncalibrated).toEqual(['single']);
  });
});
