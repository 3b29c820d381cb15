import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_COMMANDS } from '@/lib/cli/report-commands';
import { publicDataDir } from '@/lib/io/public-data';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import type { JudgeImportReportDto } from '../imports/dto';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { agreementReport } from './agreement';
import { alignmentReport } from './alignment';

/*
 * PandaLM's human-labelled test set (999 items, three annotators, `overall` only) imported the way a lead would,
 * with both of its judges. The pairwise Cohen κ of its annotators are published figures.
 */
useTestDatabase();
const PANDALM = path.join(publicDataDir(), 'pandalm');
let lead: Actor;
let studyId: number;
let gpt: JudgeImportReportDto;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studyId = createStudy(lead, { kind: 'pairwise', name: 'PandaLM', reviewersPerItem: 3, groundTruthRule: 'majority', seed: 7 }).id;
  setStudyCriteria(lead, studyId, []);
  importItems(lead, studyId, path.join(PANDALM, 'testset-v1.json'), 'pandalm');
  gpt = importJudge(lead, studyId, path.join(PANDALM, 'gpt-3.5-turbo-testset-v1.json'), 'pandalm');
  importJudge(lead, studyId, path.join(PANDALM, 'pandalm-7b-testset-v1.json'), 'pandalm', 'pandalm-7b');
});

describe('agreement on PandaLM', () => {
  it("reproduces the published Cohen κ of the three annotators' pairs", () => {
    const r = agreementReport(lead, studyId, { bootstrap: 200 });
    expect(r.criteria.map((c) => c.criterion)).toEqual(['overall']);
    const [overall] = r.criteria;
    expect(overall).toMatchObject({ items: 999, ratings: 2997 });
    expect(overall.pairs.map((p) => [p.annotators.join(' × '), p.items, p.cohenKappa.value!.toFixed(4)])).toEqual([
      ['pandalm-annotator1 × pandalm-annotator2', 999, '0.8520'],
      ['pandalm-annotator1 × pandalm-annotator3', 999, '0.8789'],
      ['pandalm-annotator2 × pandalm-annotator3', 999, '0.8617'],
    ]);
    // Every item has three labels, so Fleiss' κ is reported, and every κ/α carries a bootstrap interval around it.
    for (const [s, i] of [
      [overall.fleissKappa, overall.intervals.fleissKappa],
      [overall.krippendorffAlphaNominal, overall.intervals.krippendorffAlphaNominal],
      [overall.pairs[0].cohenKappa, overall.pairs[0].intervals.cohenKappa],
    ] as const) {
      expect(i).toMatchObject({ method: 'bootstrap', undefinedReplicates: 0 });
      expect(i.lower!).toBeLessThan(s.value!);
      expect(i.upper!).toBeGreaterThan(s.value!);
    }
  });

  it('draws the same bootstrap for the same study, from a seed derived from the study seed', () => {
    const a = agreementReport(lead, studyId, { bootstrap: 100 });
    const b = agreementReport(lead, studyId, { bootstrap: 100 });
    expect(b.criteria[0].intervals).toEqual(a.criteria[0].intervals);
    expect(a.bootstrap).toMatchObject({ replicates: 100, level: 0.95 });
    expect(agreementReport(lead, studyId, { bootstrap: 0 }).bootstrap.seed).toBe(a.bootstrap.seed);
  });
});

describe('alignment of the PandaLM judges', () => {
  it('counts the ground-truth labels of the 25 unreadable GPT-3.5 verdicts as unjudged', () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'gpt-3.5-turbo', bootstrap: 0 });
    expect(r.unparsedVerdicts).toBe(25);
    const settled = new Set(Array.from(exportGroundTruth(lead, studyId, 'jsonl').lines, (l) => (JSON.parse(l) as { item: string }).item));
    const unreadableSettled = gpt.unparsed.filter((u) => settled.has(u.item)).length;
    expect(r.unjudged).toBe(unreadableSettled);
    expect(r.overall.n + r.unjudged).toBe(r.groundTruth.labels);
    expect(r.groundTruth.labels).toBe(settled.size);
  });

  it('compares the judge with each of the three annotators', () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'pandalm-7b', bootstrap: 0 });
    expect(r.unjudged).toBe(0);
    expect(r.judgeVsAnnotators.map((a) => [a.annotator, a.n])).toEqual([
      ['pandalm-annotator1', 999],
      ['pandalm-annotator2', 999],
      ['pandalm-annotator3', 999],
    ]);
    expect(r.humanVsHuman.n).toBe(3 * 999);
    expect(r.positionConsistency).toEqual({ value: null, reason: 'no_both_orders' });
  });
});

describe('report commands (--json)', () => {
  afterEach(() => vi.restoreAllMocks());

  async function runJson(name: string, values: Record<string, string | boolean>, positionals: string[] = []) {
    const command = REPORT_COMMANDS.find((c) => c.name === name)!;
    let output = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output += String(chunk);
      return true;
    });
    await command.run({ study: String(studyId), json: true, ...values }, positionals);
    vi.restoreAllMocks();
    return JSON.parse(output);
  }

  const isRate = (x: unknown) => typeof x === 'number' && x >= 0 && x <= 1;
  const isCoefficient = (x: unknown) => typeof x === 'number' && x >= -1 && x <= 1;

  it('prints agreement with the documented fields, values as plain numbers', async () => {
    const r = await runJson('report agreement', { bootstrap: '50' });
    const c = r.criteria[0];
    expect(c).toMatchObject({ criterion: 'overall', items: 999 });
    expect(isRate(c.percentAgreement)).toBe(true);
    for (const k of ['fleissKappa', 'krippendorffAlphaNominal', 'krippendorffAlphaOrdinal']) expect(isCoefficient(c[k])).toBe(true);
    expect(c.pairs[0].annotators).toEqual(['pandalm-annotator1', 'pandalm-annotator2']);
    expect(c.pairs[0].items).toBe(999);
    expect(c.pairs[0].cohenKappa.toFixed(4)).toBe('0.8520');
  });

  it('prints alignment, leaderboard and hybrid with the documented fields', async () => {
    const a = await runJson('report alignment', { judge: 'pandalm-7b', bootstrap: '50' });
    expect(a.overall.n).toBe(a.groundTruth.labels);
    for (const k of ['alignmentRate', 'alignmentRateNoTies']) expect(isRate(a.overall[k])).toBe(true);
    expect(isCoefficient(a.overall.cohenKappa)).toBe(true);
    expect(a.byCriterion[0].criterion).toBe('overall');
    expect(a.byModel.reduce((sum: number, m: { n: number }) => sum + m.n, 0)).toBe(a.overall.n);
    // Not available: null, with the reason beside it.
    expect(a.positionConsistency).toBeNull();
    expect(a.positionConsistencyReason).toBe('no_both_orders');

    const l = await runJson('report leaderboard', { 'tie-policy': 'exclude', bootstrap: '0' });
    expect(l.tiePolicy).toBe('exclude');
    const row = l.rows.find((x: { grader: string }) => x.grader === 'ground truth');
    expect(isRate(row.overallJudgement)).toBe(true);
    // PandaLM has no general or principle criteria: those aggregates are null with a reason.
    expect(row).toMatchObject({ generalLevelAcc: null, generalLevelAccReason: 'no_items', principleLevelAcc: {}, overallAcc: null });
    expect(row.alignmentRate).toBeNull();

    const h = await runJson('report hybrid', { judge: 'pandalm-7b', target: '0.9' });
    expect(h.n).toBe(a.overall.n);
    expect(isRate(h.accJudge) && isRate(h.accHybrid) && isRate(h.effortSaved)).toBe(true);
    expect(h.classes.map((c: { label: string }) => c.label)).toEqual(['lose', 'tie', 'win']);
    for (const c of h.classes) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['label', 'predicted', 'correct', 'classwiseAccuracy', 'decision']));
    }
    expect(typeof h.reviewed).toBe('number');
    expect(typeof h.extraReviewsExpected).toBe('number');
  });

  it('imports a judge run under the name given', async () => {
    const r = await runJson('import judge', { judge: 'gpt-3.5 again', format: 'pandalm' }, [
      path.join(PANDALM, 'gpt-3.5-turbo-testset-v1.json'),
    ]);
    expect(r).toMatchObject({ run: 'gpt-3.5 again', records: 999 });
    expect(r.unparsed).toHaveLength(25);
  });
});
