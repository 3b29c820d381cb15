import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataDir } from '@/lib/io/public-data';
import { errorBoundedAcceptance, hybridPlanFromConfusion, strataByPredictedLabel } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importMrbenchV1Run } from '../demo/rubric-demo';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { LABEL_SET, analysableStudy, judgeRunNamed, loadFrame, loadGold, loadJudge } from './data';
import type { AcceptanceDto } from './dto';
import { hybridReport } from './hybrid';
import { rubricHybridReport } from './rubric-hybrid';
import { analysableRubricStudy, loadRubricFrame, loadRubricGold, loadRubricJudge } from './rubric-data';

/*
 * Error-bounded acceptance at ε = δ = 5 % on real data, beside Padó's plan, recomputed here from the codes the
 * reports read with lib/stats called directly. Every item has ground truth, so the calibration sample is the whole
 * of the judge's output, and the error Padó's accepted class shows on it is its actual error there.
 *   - PandaLM (999 items, three annotators, majority rule), GPT-3.5 as the judge.
 *   - MRBench V3 dev set (V3 gold as the people), MRBench V1's labels of the same replies as the judge, each dimension.
 */
const DATA = publicDataDir();
const present = fs.existsSync(path.join(DATA, 'pandalm')) && fs.existsSync(path.join(DATA, 'mrbench'));
useTestDatabase();
let lead: Actor;
let pandalm: number;
let mrbench: number;

beforeAll(async () => {
  if (!present) return;
  lead = await makeUser('lead', 'lead');
  pandalm = createStudy(lead, { kind: 'pairwise', name: 'PandaLM', reviewersPerItem: 3, groundTruthRule: 'majority', seed: 7 }).id;
  setStudyCriteria(lead, pandalm, []);
  importItems(lead, pandalm, path.join(DATA, 'pandalm', 'testset-v1.json'), 'pandalm');
  importJudge(lead, pandalm, path.join(DATA, 'pandalm', 'gpt-3.5-turbo-testset-v1.json'), 'pandalm');
  const study = createStudy(lead, { kind: 'rubric', name: 'MRBench V3', dimensions: 'mrbench-v3', reviewersPerItem: 1 });
  mrbench = study.id;
  importItems(lead, mrbench, path.join(DATA, 'mrbench', 'mrbench_v3_devset.json'), 'mrbench');
  importMrbenchV1Run(lead, mrbench, study.dimensions!, path.join(DATA, 'mrbench', 'MRBench_V1.json'));
}, 180_000);

/** Acceptance and Padó's plan from gold and verdict codes, straight from lib/stats. */
function recompute(gold: ArrayLike<number>, verdict: ArrayLike<number>, labels: readonly string[]) {
  const calibration = [];
  const pool = [];
  const confusion = labels.map(() => new Array<number>(labels.length).fill(0));
  for (let i = 0; i < verdict.length; i++) {
    if (verdict[i] < 0) continue;
    pool.push(labels[verdict[i]]);
    if (gold[i] < 0) continue;
    calibration.push({ predicted: labels[verdict[i]], human: labels[gold[i]] });
    confusion[gold[i]][verdict[i]]++;
  }
  const strata = strataByPredictedLabel(labels, calibration, pool);
  const result = errorBoundedAcceptance(strata, { epsilon: 0.05, delta: 0.05, method: 'holm' });
  const pado = hybridPlanFromConfusion(confusion, labels, { target: 0.95 });
  const padoStratum = strata.find((s) => s.name === pado.acceptedClass)!;
  const acceptedPool = strata.filter((s) => result.accepted.includes(s.name)).reduce((a, s) => a + s.pool, 0);
  return {
    accepted: result.accepted,
    acceptedShare: acceptedPool / pool.length,
    effortSaved: result.effortSaved.value,
    padoClass: pado.acceptedClass,
    padoShare: padoStratum.pool / pool.length,
    padoError: padoStratum.errors / padoStratum.n,
    // Every item has ground truth here: the accepted class's error over all its items is the calibration one.
    padoActualError: calibration.filter((c) => c.predicted === pado.acceptedClass && c.human !== c.predicted).length / padoStratum.pool,
  };
}

function expectSame(a: AcceptanceDto, r: ReturnType<typeof recompute>) {
  expect(a.acceptedLabels).toEqual(r.accepted);
  expect(a.acceptedShare.value).toBeCloseTo(r.acceptedShare, 12);
  expect(a.effortSaved.value).toBe(r.effortSaved);
  expect(a.pado.acceptedClass).toBe(r.padoClass);
  expect(a.pado.acceptedShare.value).toBeCloseTo(r.padoShare, 12);
  expect(a.pado.observedError.value).toBeCloseTo(r.padoError, 12);
  expect(a.pado.observedError.value).toBeCloseTo(r.padoActualError, 12);
  expect(a.pado.guaranteed).toBe(r.accepted.includes(r.padoClass!));
}

describe.skipIf(!present)(`error-bounded acceptance on real data (needs PandaLM and MRBench under ${DATA})`, () => {
  it('PandaLM, GPT-3.5 as the judge: the guaranteed share beside Padó’s share and its actual error', () => {
    const a = hybridReport(lead, pandalm, { judge: 'gpt-3.5-turbo' }).acceptance;
    const db = getDb();
    const frame = loadFrame(db, analysableStudy(db, lead, pandalm));
    const r = recompute(loadGold(db, frame).gold, loadJudge(db, frame, judgeRunNamed(db, pandalm, 'gpt-3.5-turbo').id).verdict, LABEL_SET);
    expectSame(a, r);
    expect(a.pool).toBe(a.calibration);
  });

  it('MRBench V3 with V1 as the judge, every dimension: the same figures as lib/stats', () => {
    const db = getDb();
    const frame = loadRubricFrame(db, analysableRubricStudy(db, lead, mrbench));
    const gold = loadRubricGold(db, frame).gold;
    const verdict = loadRubricJudge(db, frame, judgeRunNamed(db, mrbench, 'mrbench-v1'), 1);
    const { n } = frame;
    for (let d = 0; d < frame.D; d++) {
      const dim = frame.dimensions[d];
      const a = rubricHybridReport(lead, mrbench, { judge: 'mrbench-v1', criterion: dim.id }).acceptance;
      const r = recompute(gold.subarray(d * n, (d + 1) * n), verdict.subarray(d * n, (d + 1) * n), dim.labels);
      expectSame(a, r);
      expect(a.pool).toBe(1464);
    }
  });
});
