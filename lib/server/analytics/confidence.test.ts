import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { calibration } from '@/lib/stats';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { importJudge } from '../imports/judge-import';
import { ImportRejected } from '../imports/import-report';
import { biasReport } from './bias';
import { rubricBiasReport } from './rubric-bias';
import { buildStudy } from '@/test/analytics-fixtures';

/*
 * A judge's own confidence per verdict: the optional `confidence` (0–1) of a judge line, checked on import, stored
 * with the verdict, and read by the Bias tab's calibration (a verbalised confidence: Brier and ECE of lib/stats).
 */
const { dir } = useTestDatabase();
let lead: Actor;
let pairwise: number;
let rubric: number;

type L = 'win' | 'lose' | 'tie';
// gold, verdict, confidence
const ROWS: [L, L, number][] = [
  ['win', 'win', 0.9],
  ['win', 'win', 0.95],
  ['lose', 'win', 0.8],
  ['lose', 'lose', 0.6],
  ['tie', 'lose', 0.55],
  ['win', 'win', 1],
  ['lose', 'lose', 0.7],
  ['win', 'tie', 0.3],
];
const ids = ROWS.map((_, k) => `c-${k}`);
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  pairwise = buildStudy(lead, dir, {
    name: 'Confidence pairwise',
    reviewersPerItem: 1,
    catalog: [],
    items: ids.map((id) => ({ id, model: 'm' })),
    annotations: ROWS.map(([g], k) => ({ item: ids[k], annotator: 'expert', labels: { overall: g } })),
    judges: [],
  });
  rubric = buildRubricStudy(lead, {
    name: 'Confidence rubric',
    catalog: [{ id: 'mi', name: 'Notices the mistake', labels: ['No', 'Yes'], desired: 'Yes' }],
    reviewersPerItem: 1,
    items: ids.map((id) => ({ id, source: 't' })),
    annotations: ROWS.map(([g], k) => ({ item: ids[k], annotator: 'expert', labels: { mi: g === 'win' ? 'Yes' : 'No' } })),
  });
});

describe('a confidence per verdict', () => {
  it('is refused outside 0–1 with the line and field, and nothing is imported', () => {
    const file = writeTemp(
      dir,
      'bad.jsonl',
      jsonl([
        { item: ids[0], judge: 'bad', labels: { overall: 'win' }, confidence: 0.5 },
        { item: ids[1], judge: 'bad', labels: { overall: 'win' }, confidence: 1.2 },
        { item: ids[2], judge: 'bad', labels: { overall: 'win' }, confidence: 'high' },
      ]),
    );
    const error = (() => {
      try {
        importJudge(lead, pairwise, file, 'concord');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).errors.map((e) => [e.line, e.path])).toEqual([
      [2, 'confidence'],
      [3, 'confidence'],
    ]);
    expect(getDb().$client.prepare("SELECT count(*) FROM judge_runs WHERE name = 'bad'").pluck().get()).toBe(0);
  });

  it('is stored with a pairwise verdict and gives the Bias tab the calibration of lib/stats for a verbalised confidence', () => {
    importJudge(
      lead,
      pairwise,
      writeTemp(dir, 'conf.jsonl', jsonl(ROWS.map(([, v, c], k) => ({ item: ids[k], judge: 'verbal', labels: { overall: v }, confidence: c })))),
      'concord',
    );
    const stored = getDb()
      .$client.prepare("SELECT l.confidence FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = 'verbal' ORDER BY l.item_id")
      .pluck()
      .all();
    expect(stored).toEqual(ROWS.map(([, , c]) => c));
    const r = biasReport(lead, pairwise);
    expect(r.uncalibrated).toEqual([]);
    const [c] = r.calibration;
    const direct = calibration({
      labels: ['lose', 'tie', 'win'],
      gold: ROWS.map(([g]) => g),
      predicted: ROWS.map(([, v]) => v),
      confidence: ROWS.map(([, , x]) => x),
    });
    expect(c).toMatchObject({ judge: 'verbal', source: 'confidence', n: 8, samplesMin: 1, samplesMax: 1 });
    expect(c.brierTopLabel.value).toBe(direct.brierTopLabel.value);
    expect(c.ece.value).toBe(direct.ece.value);
    expect(c.adaptiveEce.value).toBe(direct.adaptiveEce.value);
    // A verbalised confidence gives no distribution over the other labels.
    expect(c.brierMulticlass).toEqual({ value: null, reason: 'no_distribution' });
  });

  it('is stored with a rubric verdict of its sample and read by the rubric Bias tab', () => {
    const yes = (l: L) => (l === 'win' ? 'Yes' : 'No');
    importJudge(
      lead,
      rubric,
      writeTemp(dir, 'rconf.jsonl', jsonl(ROWS.map(([, v, c], k) => ({ item: ids[k], judge: 'verbal', labels: { mi: yes(v) }, confidence: c })))),
      'concord',
    );
    const [c] = rubricBiasReport(lead, rubric).calibration;
    const direct = calibration({
      labels: ['No', 'Yes'],
      gold: ROWS.map(([g]) => yes(g)),
      predicted: ROWS.map(([, v]) => yes(v)),
      confidence: ROWS.map(([, , x]) => x),
    });
    expect(c).toMatchObject({ judge: 'verbal', criterion: 'mi', source: 'confidence', n: 8 });
    expect([c.brierTopLabel.value, c.ece.value]).toEqual([direct.brierTopLabel.value, direct.ece.value]);
  });
});
