import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { calibration, errorBoundedAcceptance } from '@/lib/stats';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { importJudge } from '../imports/judge-import';
import { ImportRejected } from '../imports/import-report';
import { openStudy } from '../studies/studies';
import { biasReport } from './bias';
import { hybridReport } from './hybrid';
import { openHybridQueue } from './hybrid-queue';
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
      writeTemp(
        dir,
        'conf.jsonl',
        jsonl(ROWS.map(([, v, c], k) => ({ item: ids[k], judge: 'verbal', labels: { overall: v }, confidence: c }))),
      ),
      'concord',
    );
    const stored = getDb()
      .$client.prepare(
        "SELECT l.confidence FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = 'verbal' ORDER BY l.item_id",
      )
      .pluck()
      .all();
    expect(stored).toEqual(ROWS.map(([, , c]) => c));
    const r = biasReport(lead, pairwise, 'bias');
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
      writeTemp(
        dir,
        'rconf.jsonl',
        jsonl(ROWS.map(([, v, c], k) => ({ item: ids[k], judge: 'verbal', labels: { mi: yes(v) }, confidence: c }))),
      ),
      'concord',
    );
    const [c] = biasReport(lead, rubric, 'rubric-bias').calibration;
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

/*
 * Error-bounded acceptance by class × confidence bin. The judge says "win" on every item: 120 calibration items with
 * confidence 0.95, all right, and 100 with confidence 0.6, 30 of them wrong (ground truth "lose"); 20 and 15 more items
 * of each have no ground truth. Padó's plan accepts "win" whole (observed error 30/220); the guarantee only its
 * confident bin.
 */
describe('acceptance by class × confidence bin', () => {
  let study: number;
  const sure = Array.from({ length: 140 }, (_, k) => ({ id: `s-${k}`, gold: k < 120 ? ('win' as L) : null, c: 0.95 }));
  const unsure = Array.from({ length: 115 }, (_, k) => ({ id: `u-${k}`, gold: k < 100 ? ((k < 30 ? 'lose' : 'win') as L) : null, c: 0.6 }));
  const all = [...sure, ...unsure];
  beforeAll(async () => {
    await makeUser('r1');
    study = buildStudy(lead, dir, {
      name: 'Confidence strata',
      reviewersPerItem: 1,
      catalog: [],
      items: all.map((x) => ({ id: x.id, model: 'm' })),
      annotations: all.filter((x) => x.gold).map((x) => ({ item: x.id, annotator: 'expert', labels: { overall: x.gold! } })),
      judges: [],
    });
    importJudge(
      lead,
      study,
      writeTemp(dir, 'strata.jsonl', jsonl(all.map((x) => ({ item: x.id, judge: 'verbal', labels: { overall: 'win' }, confidence: x.c })))),
      'concord',
    );
  });

  it('accepts the confident bin only, with the figures of lib/stats, beside Padó’s whole class', () => {
    const a = hybridReport(lead, study, { judge: 'verbal' }).acceptance;
    const direct = errorBoundedAcceptance(
      [
        { name: 'win · confidence 0.5–0.8', n: 100, errors: 30, pool: 115 },
        { name: 'win · confidence > 0.9', n: 120, errors: 0, pool: 140 },
      ],
      { epsilon: 0.05, delta: 0.05, method: 'holm' },
    );
    expect(a.stratifiedBy).toBe('class_and_confidence');
    expect(a.strata.map((x) => [x.label, x.predicted, x.n, x.errors, x.pool, x.pValue, x.accepted])).toEqual(
      direct.perStratum.map((x, j) => [x.name, 'win', x.n, x.errors, [115, 140][j], x.pValue, x.accepted]),
    );
    expect(a.acceptedLabels).toEqual(['win · confidence > 0.9']);
    expect(a.acceptedShare.value).toBe(140 / 255);
    expect(a.effortSaved.value).toBe(direct.effortSaved.value);
    expect(a.pado).toMatchObject({ acceptedClass: 'win', acceptedItems: 255, guaranteed: false });
    expect(a.pado.observedError.value).toBe(30 / 220);
  });

  it('sends people only the unlabelled items of the bins not accepted', () => {
    openStudy(lead, study, { leaveUnassigned: true });
    const q = openHybridQueue(lead, study, { judge: 'verbal', plan: 'guaranteed', usernames: ['r1'] });
    expect(q).toMatchObject({ routed: 15, extra: 0 });
    const routed = getDb()
      .$client.prepare(
        "SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id JOIN users u ON u.id = a.user_id WHERE a.study_id = ? AND u.username = 'r1' ORDER BY i.position",
      )
      .pluck()
      .all(study);
    expect(routed).toEqual(Array.from({ length: 15 }, (_, k) => `u-${100 + k}`));
  });
});
