import { beforeAll, describe, expect, it } from 'vitest';
import { calibration } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { biasReport } from './bias';
import { computeReport } from './report';
import { buildStudy } from '@/test/analytics-fixtures';

/*
 * The calibration of judges that give several verdicts per item, on the Bias tab: a pairwise run that judged twelve
 * items in both orders (its two verdicts are two samples), beside one that judged one order only; a rubric run with
 * three samples per reply, beside one with a single sample. Every figure is lib/stats `calibration` on the same
 * samples and ground truth.
 */
const { dir } = useTestDatabase();
let lead: Actor;
let pairwise: number;
let rubric: number;

type L = 'win' | 'lose' | 'tie';
// gold, verdict with reply a first, verdict with the replies swapped (from a's side).
const PAIRS: [L, L, L][] = [
  ['win', 'win', 'win'],
  ['win', 'win', 'win'],
  ['win', 'win', 'lose'],
  ['win', 'lose', 'win'],
  ['lose', 'lose', 'lose'],
  ['lose', 'lose', 'tie'],
  ['lose', 'win', 'win'],
  ['lose', 'win', 'lose'],
  ['tie', 'tie', 'tie'],
  ['tie', 'win', 'tie'],
  ['tie', 'lose', 'lose'],
  ['win', 'tie', 'win'],
];
const LABELS = ['lose', 'tie', 'win'];

const RUBRIC_LABELS = ['No', 'To some extent', 'Yes'];
// gold, then three samples per reply.
const REPLIES: [string, [string, string, string]][] = [
  ['Yes', ['Yes', 'Yes', 'Yes']],
  ['Yes', ['Yes', 'Yes', 'No']],
  ['No', ['No', 'No', 'No']],
  ['No', ['Yes', 'No', 'To some extent']],
  ['To some extent', ['To some extent', 'Yes', 'To some extent']],
  ['Yes', ['No', 'No', 'Yes']],
  ['No', ['No', 'No', 'Yes']],
  ['Yes', ['Yes', 'Yes', 'Yes']],
];

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const id = (k: number) => `p-${k}`;
  pairwise = buildStudy(lead, dir, {
    name: 'Calibration pairwise',
    reviewersPerItem: 1,
    catalog: [],
    items: PAIRS.map((_, k) => ({ id: id(k), model: 'm' })),
    annotations: PAIRS.map(([g], k) => ({ item: id(k), annotator: 'expert', labels: { overall: g } })),
    judges: [
      {
        name: 'both-orders',
        lines: PAIRS.flatMap(([, a, b], k) => [
          { item: id(k), labels: { overall: a } },
          { item: id(k), labels: { overall: b }, swapped: true },
        ]),
      },
      { name: 'one-order', lines: PAIRS.map(([, a], k) => ({ item: id(k), labels: { overall: a } })) },
    ],
  });
  rubric = buildRubricStudy(lead, {
    name: 'Calibration rubric',
    catalog: [{ id: 'mi', name: 'Notices the mistake', labels: RUBRIC_LABELS, desired: 'Yes' }],
    reviewersPerItem: 1,
    items: REPLIES.map((_, k) => ({ id: `r-${k}`, source: 't' })),
    annotations: REPLIES.map(([g], k) => ({ item: `r-${k}`, annotator: 'expert', labels: { mi: g } })),
    judges: [
      {
        name: 'sampled',
        lines: REPLIES.flatMap(([, s], k) => s.map((label, j) => ({ item: `r-${k}`, labels: { mi: label }, sample: j + 1 }))),
      },
      { name: 'single', lines: REPLIES.map(([, s], k) => ({ item: `r-${k}`, labels: { mi: s[0] } })) },
    ],
  });
});

describe('calibration on the Bias tab', () => {
  it('pairwise: both reply orders as two samples, with the Brier scores, ECE and bins of lib/stats', () => {
    const r = biasReport(lead, pairwise, 'bias');
    expect(r.uncalibrated).toEqual(['one-order']);
    expect(r.calibration).toHaveLength(1);
    const [c] = r.calibration;
    const direct = calibration({ labels: LABELS, gold: PAIRS.map(([g]) => g), samples: PAIRS.map(([, a, b]) => [a, b]) }, { nBins: 10 });
    expect(c).toMatchObject({
      judge: 'both-orders',
      criterion: 'overall',
      source: 'samples',
      n: 12,
      samplesMin: 2,
      samplesMax: 2,
      bins: 10,
    });
    expect(c.brierTopLabel.value).toBe(direct.brierTopLabel.value);
    expect(c.brierMulticlass.value).toBe(direct.brierMulticlass.value);
    expect(c.ece.value).toBe(direct.ece.value);
    expect(c.adaptiveEce.value).toBe(direct.adaptiveEce.value);
    expect(c.accuracy.value).toBe(direct.accuracy.value);
    expect(c.reliability.map((b) => [b.bin, b.n, b.accuracy.value, b.meanConfidence.value])).toEqual(
      direct.reliability.value!.map((b) => [b.bin, b.n, b.accuracy.value, b.meanConfidence.value]),
    );
    // Two samples: every confidence is ½ (the orders disagree) or 1, so only bins 5 and 10 hold items.
    expect(c.reliability.filter((b) => b.n > 0).map((b) => [b.bin, b.n])).toEqual([
      [5, 6],
      [10, 6],
    ]);
    expect(c.reliability[0].accuracy).toEqual({ value: null, reason: 'empty_bin' });
  });

  it('rubric: every sample of a run, per dimension; a single-sample run is named as uncalibrated', () => {
    const r = biasReport(lead, rubric, 'rubric-bias');
    expect(r.uncalibrated).toEqual(['single']);
    const [c] = r.calibration;
    const direct = calibration({ labels: RUBRIC_LABELS, gold: REPLIES.map(([g]) => g), samples: REPLIES.map(([, s]) => s) });
    expect(c).toMatchObject({ judge: 'sampled', criterion: 'mi', n: 8, samplesMin: 3, samplesMax: 3 });
    for (const key of ['brierTopLabel', 'brierMulticlass', 'ece', 'adaptiveEce', 'accuracy', 'meanConfidence'] as const)
      expect(c[key].value, key).toBe(direct[key].value);
    expect(c.adaptiveReliability.map((b) => [b.lower, b.upper, b.n])).toEqual(
      direct.adaptiveReliability.value!.map((b) => [b.lower, b.upper, b.n]),
    );
  });

  it('reaches the registry: the bias report of each kind carries it', () => {
    expect(computeReport(lead, pairwise, 'bias', {}).calibration).toHaveLength(1);
    expect(computeReport(lead, rubric, 'rubric-bias', {}).calibration).toHaveLength(1);
  });
});
