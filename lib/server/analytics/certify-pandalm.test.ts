import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/db/client';
import { REPORT_COMMANDS } from '@/lib/cli/report-commands';
import { publicDataDir } from '@/lib/io/public-data';
import { createRng, rankCorrelation } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { correctedRun } from './corrected-leaderboard';
import { analysableStudy, loadFrame, loadGold, loadJudge } from './data';
import { GROUND_TRUTH_GRADER, leaderboardReport } from './leaderboard';

/*
 * Certification and bias reports on PandaLM's human-labelled test set (999 items, three annotators on every item,
 * `overall` only; `a` is response 1), judged by GPT-3.5 (25 verdicts unreadable) and PandaLM-7B.
 */
useTestDatabase();
const PANDALM = path.join(publicDataDir(), 'pandalm');
let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studyId = createStudy(lead, { kind: 'pairwise', name: 'PandaLM', reviewersPerItem: 3, groundTruthRule: 'majority', seed: 7 }).id;
  setStudyCriteria(lead, studyId, []);
  importItems(lead, studyId, path.join(PANDALM, 'testset-v1.json'), 'pandalm');
  importJudge(lead, studyId, path.join(PANDALM, 'gpt-3.5-turbo-testset-v1.json'), 'pandalm');
  importJudge(lead, studyId, path.join(PANDALM, 'pandalm-7b-testset-v1.json'), 'pandalm', 'pandalm-7b');
});

describe('judge-corrected win rate of response 1 (PPI++)', () => {
  it('covers the all-human win rate from GPT-3.5 on every item and a random 20 % of the ground truth', () => {
    const all = leaderboardReport(lead, studyId, { tiePolicy: 'half', bootstrap: 0 });
    const human = all.rows.find((r) => r.grader === GROUND_TRUTH_GRADER)!.overallJudgement.value!;

    const db = getDb();
    const frame = loadFrame(db, analysableStudy(db, lead, studyId));
    const gold = loadGold(db, frame).gold;
    const run = db.$client
      .prepare("SELECT id FROM judge_runs WHERE study_id = ? AND name = 'gpt-3.5-turbo'")
      .pluck()
      .get(studyId) as number;
    const verdict = loadJudge(db, frame, run).verdict;
    // Hide the ground truth of a seeded random 80 % of the items from the estimator.
    const rng = createRng(20250701);
    const masked = Int8Array.from(gold, (g) => (rng.nextFloat() < 0.2 ? g : -1));
    const labelled = masked.filter((g) => g >= 0).length;
    expect(labelled).toBeGreaterThan(150);
    expect(labelled).toBeLessThan(250);

    const [cell] = correctedRun(frame, [masked], { name: 'gpt-3.5-turbo', slices: [verdict] }, 'half').cells;
    expect(cell).toMatchObject({ model: 'pandalm-response1', criterion: 'overall' });
    expect(cell.labelled + cell.labelledUnjudged).toBe(labelled);
    expect(cell.labelled + cell.unlabelled).toBe(999 - 25);
    const ci = cell.intervals.corrected;
    // All human: 0.4750 (999 items). GPT-3.5 + 20 %: 0.4880, 95 % [0.4300, 0.5460]; human-only on the same 20 %:
    // [0.4304, 0.5756]; the judge alone: 0.4918 [0.4610, 0.5226].
    expect(human.toFixed(4)).toBe('0.4750');
    expect(ci.lower!).toBeLessThanOrEqual(human);
    expect(ci.upper!).toBeGreaterThanOrEqual(human);
    // The judge narrows the interval: it is worth more human labels than were given.
    const hi = cell.intervals.humanOnly;
    expect(ci.upper! - ci.lower!).toBeLessThan(hi.upper! - hi.lower!);
    expect(cell.effectiveLabels.value!).toBeGreaterThan(cell.labelled);
    expect(cell.lambda.value!).toBeGreaterThan(0);
  });

  it('reports every judge run in the leaderboard, and refuses a corrected rate when ties are excluded', () => {
    const half = leaderboardReport(lead, studyId, { tiePolicy: 'half', bootstrap: 0 });
    expect(half.corrected.map((r) => r.judge)).toEqual(['gpt-3.5-turbo', 'pandalm-7b']);
    // Every PandaLM item has ground truth: nothing is left for the judge to add, and the report says so.
    const [gpt] = half.corrected[0].cells;
    expect(gpt).toMatchObject({
      labelled: 974,
      unlabelled: 0,
      labelledUnjudged: 25,
      corrected: { value: null, reason: 'no_unlabelled_items' },
    });
    const excluded = leaderboardReport(lead, studyId, { tiePolicy: 'exclude', bootstrap: 0 });
    expect(excluded.corrected[0].cells[0].corrected).toEqual({ value: null, reason: 'not_a_mean' });
    // One model only: no ranking to compare.
    expect(half.rankAgreement.map((r) => [r.grader, r.scope, r.models, r.tauB.value])).toEqual([
      ['gpt-3.5-turbo', 'overall', 1, null],
      ['pandalm-7b', 'overall', 1, null],
    ]);
  });
});

describe('rank agreement of the two PandaLM judges', () => {
  it('ranks the five models of the test set as people do, and as each other', () => {
    // The study keeps reply a's side only; the models of each comparison are in the file's cmp_key ("first_second").
    // Each model's score: its share of wins over both positions (a tie ½), from the ground truth and each judge
    // as Concord stores them.
    const raw = JSON.parse(fs.readFileSync(path.join(PANDALM, 'testset-v1.json'), 'utf8')) as { idx: number; cmp_key: string }[];
    const pairOf = new Map(raw.map((r) => [`pandalm-${r.idx}`, r.cmp_key.split('_')]));
    const db = getDb();
    const frame = loadFrame(db, analysableStudy(db, lead, studyId));
    const external = new Map(
      db.$client.prepare('SELECT id, external_id FROM items WHERE study_id = ?').raw().all(studyId) as [number, string][],
    );
    const runId = (name: string) =>
      db.$client.prepare('SELECT id FROM judge_runs WHERE study_id = ? AND name = ?').pluck().get(studyId, name) as number;
    const graders = {
      people: loadGold(db, frame).gold,
      gpt: loadJudge(db, frame, runId('gpt-3.5-turbo')).verdict,
      pandalm: loadJudge(db, frame, runId('pandalm-7b')).verdict,
    };
    const models = ['bloom-7b', 'cerebras-gpt-6.7B', 'llama-7b', 'opt-7b', 'pythia-6.9b'];
    const scores = (codes: Int8Array) => {
      const sum = new Map(models.map((m) => [m, 0]));
      const n = new Map(models.map((m) => [m, 0]));
      for (let i = 0; i < frame.n; i++) {
        if (codes[i] < 0) continue;
        const [first, second] = pairOf.get(external.get(frame.items.ids[i])!)!;
        const a = codes[i] / 2; // lose 0, tie ½, win 1 for the first model
        sum.set(first, sum.get(first)! + a);
        sum.set(second, sum.get(second)! + 1 - a);
        n.set(first, n.get(first)! + 1);
        n.set(second, n.get(second)! + 1);
      }
      return models.map((m) => sum.get(m)! / n.get(m)!);
    };
    const people = scores(graders.people);
    const gpt = scores(graders.gpt);
    const pandalm = scores(graders.pandalm);
    // Computed independently from the three JSON files (majority of the three annotators; GPT's 25 unreadable
    // verdicts left out).
    expect(people.map((x) => x.toFixed(4))).toEqual(['0.4889', '0.3380', '0.7114', '0.4223', '0.5230']);
    expect(gpt.map((x) => x.toFixed(4))).toEqual(['0.5164', '0.3294', '0.7034', '0.4316', '0.5039']);
    expect(pandalm.map((x) => x.toFixed(4))).toEqual(['0.5319', '0.3699', '0.6200', '0.4521', '0.5153']);
    // Both judges swap bloom and pythia against people; they agree with each other exactly.
    for (const judge of [gpt, pandalm]) {
      const r = rankCorrelation(people, judge);
      expect(r.tauB.value).toBeCloseTo(0.8, 12);
      expect(r.spearmanRho.value).toBeCloseTo(0.9, 12);
      expect(r.tauBPValue.value).toBeCloseTo(1 / 12, 12);
    }
    const between = rankCorrelation(gpt, pandalm);
    expect(between.tauB.value).toBeCloseTo(1, 12);
    expect(between.tauBPValue.value).toBeCloseTo(1 / 60, 12);
  });
});

describe('alternative annotator test on PandaLM', () => {
  it('holds out each of the three annotators; neither judge can replace one at ε = 0.2', () => {
    const gpt = certifyReport(lead, studyId, { judge: 'gpt-3.5-turbo' }).altTest;
    expect(gpt).toMatchObject({ epsilon: 0.2, minReviewers: 3 });
    const [c] = gpt.criteria;
    expect(c).toMatchObject({
      criterion: 'overall',
      itemsWithEnoughReviewers: 999,
      itemsUsed: 974,
      annotatorsTested: 3,
      judgeCanReplace: false,
    });
    expect(c.winningRate.value).toBe(0);
    expect(c.advantageProbability.value!.toFixed(4)).toBe('0.7580');
    expect(
      c.annotators.map((a) => [a.annotator, a.items, a.rhoJudge.value!.toFixed(4), a.rhoHuman.value!.toFixed(4), a.judgeWins]),
    ).toEqual([
      ['pandalm-annotator1', 974, '0.7587', '0.9815', false],
      ['pandalm-annotator2', 974, '0.7567', '0.9702', false],
      ['pandalm-annotator3', 974, '0.7587', '0.9825', false],
    ]);
    // A judge that is the majority itself would beat every annotator: the test can say yes.
    const generous = certifyReport(lead, studyId, { judge: 'pandalm-7b', epsilon: 0.9 }).altTest.criteria[0];
    expect(generous.advantageProbability.value!.toFixed(4)).toBe('0.7147');
    expect(generous.winningRate.value).toBe(1);
    expect(generous.judgeCanReplace).toBe(true);
  });
});

describe('certification on PandaLM', () => {
  it('refutes GPT-3.5 at a 0.9 target, with every ground-truth label as an observation', () => {
    const r = certifyReport(lead, studyId, { judge: 'gpt-3.5-turbo' });
    expect(r).toMatchObject({ n: 974, agree: 697, unjudged: 25, target: 0.9, decision: 'refuted', drift: false });
    expect(r.bounds.lower!).toBeLessThan(697 / 974);
    expect(r.bounds.upper!).toBeGreaterThan(697 / 974);
    expect(r.bounds.upper!).toBeLessThan(0.9);
    expect(r.path).toHaveLength(974);
    expect(r.path.at(-1)).toMatchObject({ t: 974, lower: r.bounds.lower, upper: r.bounds.upper });
  });
});

describe('biases on PandaLM', () => {
  it('has no verdict in both orders and no stored display order, and measures length bias for every grader', () => {
    const r = biasReport(lead, studyId, 'bias');
    expect(r.judgePosition.map((j) => [j.judge, j.items, j.itemsBothOrders, j.flipRate.value])).toEqual([
      ['gpt-3.5-turbo', 974, 0, null],
      ['pandalm-7b', 999, 0, null],
    ]);
    expect(r.humanPosition).toEqual([]);
    expect(r.humanPositionReason).toBe('no_display_order');
    expect(r.length.map((l) => [l.grader, l.n])).toEqual([
      ['ground truth', 999],
      ['gpt-3.5-turbo', 974],
      ['pandalm-7b', 999],
    ]);
    // People prefer the longer reply on PandaLM (slope 0.18 per log-character, p ≈ 4e−27).
    const human = r.length[0];
    expect(human.slope.value!.toFixed(4)).toBe('0.1815');
    expect(human.intervals.slope.lower!).toBeGreaterThan(0);
    expect(human.bins!.map((b) => b.n)).toEqual([200, 199, 198, 202, 200]);
    // The shortest fifth of replies a wins about a quarter of the time, the longest fifth most of the time.
    expect(human.bins![0].winShare.value!).toBeLessThan(0.3);
    expect(human.bins![4].winShare.value!).toBeGreaterThan(0.5);
  });
});

describe('report certify and report bias (--json)', () => {
  afterEach(() => vi.restoreAllMocks());

  async function runJson(name: string, values: Record<string, string | boolean>) {
    const command = REPORT_COMMANDS.find((c) => c.name === name)!;
    let output = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output += String(chunk);
      return true;
    });
    await command.run({ study: String(studyId), json: true, ...values }, []);
    vi.restoreAllMocks();
    return JSON.parse(output);
  }

  it('prints the documented fields, values as plain numbers with their reasons beside them', async () => {
    const c = await runJson('report certify', { judge: 'gpt-3.5-turbo', target: '0.7' });
    expect(c).toMatchObject({ judge: 'gpt-3.5-turbo', criterion: 'overall', target: 0.7, n: 974, agree: 697, decision: 'keep_labelling' });
    expect(typeof c.alignmentRate).toBe('number');
    expect(typeof c.itemsNeeded).toBe('number');
    expect(c.bounds).toMatchObject({ method: 'confidence_sequence' });
    expect(c.altTest.criteria[0]).toMatchObject({ criterion: 'overall', winningRate: 0, judgeCanReplace: false });
    expect(typeof c.altTest.criteria[0].annotators[0].pAdjusted).toBe('number');

    const b = await runJson('report bias', {});
    expect(b.judgePosition[0]).toMatchObject({ judge: 'gpt-3.5-turbo', flipRate: null, flipRateReason: 'no_items_in_both_orders' });
    expect(b.humanPositionReason).toBe('no_display_order');
    expect(typeof b.length[0].slope).toBe('number');
    expect(b.length[0].bins[0]).toMatchObject({ bin: 1, n: 200 });
  });

  it('refuses the rubric options on a pairwise study rather than ignoring them', async () => {
    await expect(runJson('report bias', { lenient: true })).rejects.toThrow('--lenient and --sample are for rubric studies.');
    await expect(runJson('report certify', { judge: 'gpt-3.5-turbo', sample: '2' })).rejects.toThrow(/are for rubric studies/);
    vi.restoreAllMocks();
  });
});
