import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataPath } from '@/lib/io/public-data';
import { createRng } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importMrbenchV1Run } from '../demo/rubric-demo';
import { createStudy } from '../studies/studies';
import { judgeRunNamed } from './data';
import { analysableRubricStudy, loadRubricFrame, loadRubricGold, loadRubricJudge } from './dimension-frame';
import { leaderboardReport } from './leaderboard';
import { correctedShares } from './leaderboard-by-kind';

/*
 * Judge-corrected shares per tutor on real data. No public judge has labelled the MRBench V3 dev set, but MRBench V1
 * (NAACL 2025) published its own labels for 1,464 of the same replies (same dialogue, tutor and text) — an earlier,
 * separate annotation round. Those labels serve here as the cheap predictor on every reply they cover ("judge"
 * run `mrbench-v1`), the V3 gold labels as the ground truth, of which a seeded random 20 % is kept as "labelled".
 * PPI++'s 95 % interval of each tutor's share of "Yes" must then cover the all-human share over the same replies
 * about as often as it claims, and at least as often as the interval from the labelled replies alone.
 */
useTestDatabase();
const V3 = publicDataPath('mrbench', 'mrbench_v3_devset.json');
const V1 = publicDataPath('mrbench', 'MRBench_V1.json');

let lead: Actor;
let studyId: number;
let shared = 0;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const study = createStudy(lead, { kind: 'rubric', name: 'MRBench V3', dimensions: 'mrbench-v3', reviewersPerItem: 1 });
  studyId = study.id;
  importItems(lead, studyId, V3, 'mrbench');
  shared = importMrbenchV1Run(lead, studyId, study.dimensions!, V1).replies;
}, 120_000);

describe('MRBench V3 with MRBench V1 labels as the predictor: judge-corrected shares per tutor', () => {
  it('covers the all-human share of each tutor × dimension from the predictor and a random 20 % of the gold labels', () => {
    expect(shared).toBe(1464);
    const db = getDb();
    const frame = loadRubricFrame(db, analysableRubricStudy(db, lead, studyId));
    const gold = loadRubricGold(db, frame).gold;
    const verdict = loadRubricJudge(db, frame, judgeRunNamed(db, studyId, 'mrbench-v1'), 1);

    // The all-human share over the replies the predictor covers, per tutor × dimension and scoring.
    const truth = new Map<string, { n: number; yes: number; yesOrSome: number }>();
    const { n, D } = frame;
    for (let d = 0; d < D; d++) {
      for (let i = 0; i < n; i++) {
        if (verdict[d * n + i] < 0) continue;
        const key = `${frame.tutors[frame.tutorOf[i]]}|${frame.dimensions[d].id}`;
        const e = truth.get(key) ?? { n: 0, yes: 0, yesOrSome: 0 };
        const g = frame.dimensions[d].labels[gold[d * n + i]];
        e.n++;
        if (g === 'Yes') e.yes++;
        if (g === 'Yes' || g === 'To some extent') e.yesOrSome++;
        truth.set(key, e);
      }
    }

    // Thirty hold-outs, each a seeded random 20 % of the gold labels (about 32 per cell): how often each interval
    // covers the all-human share, and how often the predictor made the interval narrower.
    const inside = (i: { lower: number | null; upper: number | null }, x: number) => i.lower !== null && i.lower <= x && x <= i.upper!;
    let cells = 0;
    let corrected = 0;
    let humanOnly = 0;
    let narrower = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rng = createRng(seed);
      const masked = Int8Array.from(gold, (g) => (rng.nextFloat() < 0.2 ? g : -1));
      const run = correctedShares(frame, masked, verdict);
      // 9 tutors × 4 dimensions × (strict, lenient).
      expect(run).toHaveLength(72);
      for (const c of run) {
        const e = truth.get(`${c.model}|${c.criterion}`)!;
        expect(c.labelled + c.unlabelled, `${c.model} ${c.criterion}`).toBe(e.n);
        const human = (c.lenient ? e.yesOrSome : e.yes) / e.n;
        const ci = c.intervals.corrected;
        const h = c.intervals.humanOnly;
        cells++;
        if (inside(ci, human)) corrected++;
        if (inside(h, human)) humanOnly++;
        if (ci.lower !== null && h.lower !== null && ci.upper! - ci.lower! < h.upper! - h.lower!) narrower++;
      }
    }
    // Measured: corrected 2,023 of 2,160 (93.7 %), human-only 1,975 (91.4 %): with some 32 labels a cell, the normal
    // intervals of both fall short of 95 % (shares near 0 or 1), the corrected ones less so; the predictor narrowed
    // 2,057 of the 2,160 intervals (95 %).
    expect(cells).toBe(2160);
    expect(corrected / cells).toBeGreaterThan(0.9);
    expect(corrected).toBeGreaterThanOrEqual(humanOnly);
    expect(narrower / cells).toBeGreaterThan(0.5);
  });

  it('says so in the leaderboard, where every reply the predictor covers has a gold label: nothing is left to correct', () => {
    const run = leaderboardReport(lead, studyId, {}, 'rubric').corrected.find((x) => x.judge === 'mrbench-v1')!;
    expect(run.cells).toHaveLength(72);
    for (const c of run.cells) expect(c).toMatchObject({ unlabelled: 0, corrected: { value: null, reason: 'no_unlabelled_items' } });
    expect(run.cells.reduce((s, c) => s + (c.lenient ? 0 : c.labelled), 0)).toBe(4 * 1464);
  });
});
