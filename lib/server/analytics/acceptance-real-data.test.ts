import { createHash } from 'node:crypto';
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
import { reportCsv } from '@/lib/io/report-csv';
import { REPORT_TABLES } from './dto';
import { hybridReport } from './hybrid';
import { reportJson } from './json';
import { type ReportOptions, computeReport } from './report';
import { analysableRubricStudy, loadRubricFrame, loadRubricGold, loadRubricJudge } from './dimension-frame';

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
      const a = hybridReport(lead, mrbench, { judge: 'mrbench-v1', criterion: dim.id }, 'rubric').acceptance;
      const r = recompute(gold.subarray(d * n, (d + 1) * n), verdict.subarray(d * n, (d + 1) * n), dim.labels);
      expectSame(a, r);
      expect(a.pool).toBe(1464);
    }
  });

  it('the hybrid report of both kinds prints, as JSON and as every CSV table, exactly what it printed before the fold', () => {
    // SHA-256 (first 16 hex digits) of the JSON and the CSV tables that the two use-cases of each kind (before
    // one core served both kinds) printed on these studies, and the refusals they gave.
    const print = (id: number, name: 'hybrid' | 'rubric-hybrid', o: ReportOptions) => {
      try {
        const r = computeReport(lead, id, name, o);
        const text =
          JSON.stringify(reportJson(r)) + REPORT_TABLES[name].map((t) => reportCsv(name, t as never, r as never).join('')).join('');
        return createHash('sha256').update(text).digest('hex').slice(0, 16);
      } catch (e) {
        return String(e);
      }
    };
    const gpt = { judge: 'gpt-3.5-turbo' };
    const v1 = { judge: 'mrbench-v1' };
    expect(print(pandalm, 'hybrid', gpt)).toBe('adc253992478d49e');
    expect(print(pandalm, 'hybrid', { ...gpt, target: '0.9', epsilon: '0.2', delta: '0.1' })).toBe('d37464b400401c4b');
    expect(print(pandalm, 'hybrid', { ...gpt, criterion: 'nope' })).toBe(
      'DomainError: "nope" is not a criterion of this study; use one of: overall.',
    );
    expect(print(pandalm, 'hybrid', { judge: 'nope' })).toBe('DomainError: A judge run named "nope" was not found.');
    expect(print(mrbench, 'hybrid', v1)).toBe('DomainError: This report is for pairwise studies; this one is a rubric study.');
    expect(print(pandalm, 'hybrid', { ...gpt, target: '2' })).toBe('DomainError: target: target is an accuracy, at most 1.');
    const dimensions: [string, string, string][] = [
      ['mistake_identification', '56e48b05f040c6c8', 'b0c59a59f77dbda0'],
      ['mistake_location', 'aacf5b32e9901c1f', 'fa5b6b7a91c3aebc'],
      ['providing_guidance', '66c5cc1b0bf2e0d0', '025bc3ea9825a563'],
      ['actionability', '41850cb7c6b650a2', '54ebf475c539c356'],
    ];
    for (const [criterion, strict, lenient] of dimensions) {
      expect(print(mrbench, 'rubric-hybrid', { ...v1, criterion }), criterion).toBe(strict);
      expect(print(mrbench, 'rubric-hybrid', { ...v1, criterion, lenient: 'true', target: '0.97' }), criterion).toBe(lenient);
    }
    expect(print(mrbench, 'rubric-hybrid', { ...v1, sample: '2' })).toBe(
      'DomainError: The judge run "mrbench-v1" has no sample 2; its samples: 1.',
    );
    expect(print(pandalm, 'rubric-hybrid', gpt)).toBe('DomainError: This report is for rubric studies; this one is a pairwise study.');
    expect(print(mrbench, 'rubric-hybrid', { ...v1, criterion: 'zz' })).toBe(
      'DomainError: "zz" is not a dimension of this study; use one of: mistake_identification, mistake_location, providing_guidance, actionability.',
    );
  });
});
