import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importJudge } from '../imports/judge-import';
import { agreementReport } from './agreement';
import { alignmentReport } from './alignment';
import { hybridReport } from './hybrid';
import { leaderboardReport } from './leaderboard';
import { buildStudy, codeOf, labels } from '@/test/analytics-fixtures';
import { reportCsv } from '@/lib/io/report-csv';
import { parseCsv } from '@/test/csv';
import { REPORT_TABLES } from './dto';
import { reportJson } from './json';

/*
 * A study small enough to count by hand: five items, three criteria (a general one, a principle one, overall),
 * three annotators with majority ground truth, and one judge run with some verdicts given in swapped order.
 *
 * Labels are written per item in the order clarity, practice_task, overall (W = win, T = tie, L = lose):
 *
 *   item  model  ann1 ann2 ann3   ground truth (majority)  judge, canonical order   judge, swapped order
 *   i1    m1     WLW  WLW  TLW    W L W                    W T W                    W L W
 *   i2    m1     TWL  TLL  TWT    T W L                    T W W                    - - L
 *   i3    m2     LTW  LTT  WTW    L T W                    L T -                    - - W   (the only verdict: it counts)
 *   i4    m2     WLT  WTT  WLL    W L T                    L L -                    (overall unjudged)
 *   i5    m2     WTL  WTL  —      W T L (agreed by two)    (no verdicts: 3 unjudged)
 */
const CRITERIA = ['clarity', 'practice_task', 'overall'];
const CATALOG = [
  { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
  {
    id: 'practice_task',
    name: 'Practice task',
    level: 'principle',
    principle: 'Practice',
    description: 'Which practice task fits better?',
  },
];
const ANNOTATIONS: [string, string, string, string | null][] = [
  ['i1', 'WLW', 'WLW', 'TLW'],
  ['i2', 'TWL', 'TLL', 'TWT'],
  ['i3', 'LTW', 'LTT', 'WTW'],
  ['i4', 'WLT', 'WTT', 'WLL'],
  ['i5', 'WTL', 'WTL', null],
];

const { dir } = useTestDatabase();
let lead: Actor;
let annotator: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('worker');
  studyId = buildStudy(lead, dir, {
    name: 'Hand counted',
    reviewersPerItem: 3,
    groundTruthRule: 'majority',
    catalog: CATALOG,
    items: [
      { id: 'i1', model: 'm1' },
      { id: 'i2', model: 'm1' },
      { id: 'i3', model: 'm2' },
      { id: 'i4', model: 'm2' },
      { id: 'i5', model: 'm2' },
    ],
    annotations: ANNOTATIONS.flatMap(([item, ...byAnnotator]) =>
      byAnnotator.flatMap((letters, k) => (letters ? [{ item, annotator: `ann${k + 1}`, labels: labels(CRITERIA, letters) }] : [])),
    ),
    judges: [
      {
        name: 'j1',
        lines: [
          { item: 'i1', labels: labels(CRITERIA, 'WTW') },
          { item: 'i2', labels: labels(CRITERIA, 'TWW') },
          { item: 'i3', labels: labels(CRITERIA, 'LT-') },
          { item: 'i4', labels: labels(CRITERIA, 'LL-') },
          { item: 'i1', labels: labels(CRITERIA, 'WLW'), swapped: true },
          { item: 'i2', labels: labels(CRITERIA, '--L'), swapped: true },
          { item: 'i3', labels: labels(CRITERIA, '--W'), swapped: true },
        ],
      },
    ],
  });
});

describe('alignment of a judge with ground truth', () => {
  it('counts agreement, the no-ties rate, κ and the confusion matrix as by hand', () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'j1', bootstrap: 200 });
    // Ground truth vs counting verdict on the 11 judged labels: i1 W/W L/T W/W, i2 T/T W/W L/W, i3 L/L T/T W/W,
    // i4 W/L L/L — 8 agree. Rows = ground truth (lose, tie, win), columns = judge.
    expect(r.overall.confusion).toEqual([
      [2, 1, 1],
      [0, 2, 0],
      [1, 0, 4],
    ]);
    expect(r.overall).toMatchObject({ n: 11, agree: 8, nNoTies: 8 });
    expect(r.overall.alignmentRate.value).toBeCloseTo(8 / 11, 12);
    // Without ties: cells (L,L) 2, (L,W) 1, (W,L) 1, (W,W) 4 → 6 of 8.
    expect(r.overall.alignmentRateNoTies.value).toBeCloseTo(6 / 8, 12);
    // p_o = 88/121, p_e = (4·3 + 2·3 + 5·5)/121 = 43/121, κ = 45/78.
    expect(r.overall.cohenKappa.value).toBeCloseTo(45 / 78, 12);
    expect(r.overall.intervals.alignmentRate.method).toBe('wilson');
    expect(r.overall.intervals.cohenKappa.method).toBe('bootstrap');
    const { lower, upper } = r.overall.intervals.alignmentRate;
    expect(lower!).toBeLessThan(8 / 11);
    expect(upper!).toBeGreaterThan(8 / 11);

    // i4 overall has no verdict; i5 has none at all.
    expect(r.unjudged).toBe(4);
    expect(r.groundTruth).toEqual({ labels: 15, incompleteItems: 0 });
    const byCriterion = Object.fromEntries(r.byCriterion.map((c) => [c.criterion, c]));
    expect(byCriterion.clarity).toMatchObject({ n: 4, agree: 3, unjudged: 1 });
    expect(byCriterion.practice_task).toMatchObject({ n: 4, agree: 3, unjudged: 1 });
    expect(byCriterion.overall).toMatchObject({ n: 3, agree: 2, unjudged: 2 });
    expect(r.byPrinciple).toEqual([expect.objectContaining({ principle: 'Practice', criteria: ['practice_task'], n: 4, agree: 3 })]);
    expect(r.byModel.map((m) => [m.model, m.n, m.agree])).toEqual([
      ['m1', 6, 4],
      ['m2', 5, 4],
    ]);
  });

  it('uses a swapped verdict only where it is the only one, and reports position consistency', () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'j1', bootstrap: 0 });
    // On overall, i2 has both orders: the canonical W counts (against ground truth L), not the swapped L.
    // i3 is judged only in swapped order (W, matching ground truth W), so that verdict counts.
    expect(r.byCriterion.find((c) => c.criterion === 'overall')!.confusion).toEqual([
      [0, 0, 1],
      [0, 0, 0],
      [0, 0, 2],
    ]);
    // Both orders exist for i1 (W/W, T/L, W/W) and i2 overall (W/L): 2 of 4 consistent.
    expect(r.positionConsistency).toMatchObject({ n: 4, consistent: 2, rate: { value: 0.5 } });
    expect(r.overall.intervals.cohenKappa).toMatchObject({ lower: null, reason: 'not_computed' });
  });

  it('sets the judge beside each annotator and human against human, per vote', () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'j1', bootstrap: 0 });
    // Against each annotator's own labels on the 11 judged (item, criterion) keys.
    expect(r.judgeVsAnnotators.map((a) => [a.annotator, a.agreement.value! * a.n, a.n])).toEqual([
      ['ann1', 8, 11],
      ['ann2', 5, 11],
      ['ann3', 6, 11],
    ]);
    expect(r.judgeVsHuman).toMatchObject({ n: 33 });
    expect(r.judgeVsHuman.agreement.value).toBeCloseTo(19 / 33, 12);
    // Pairs of human votes agreeing per judged key: i1 1,3,3; i2 3,1,1; i3 1,3,1; i4 3,1 → 21 of 33;
    // without ties 15 of 19.
    expect(r.humanVsHuman).toMatchObject({ n: 33, nNoTies: 19 });
    expect(r.humanVsHuman.agreement.value).toBeCloseTo(21 / 33, 12);
    expect(r.humanVsHuman.agreementNoTies.value).toBeCloseTo(15 / 19, 12);
  });

  it('has no position consistency for a run judged in one order only', () => {
    const line = (item: string) => JSON.stringify({ item, judge: 'one-order', labels: { overall: 'win' } });
    importJudge(lead, studyId, writeTemp(dir, 'one-order.jsonl', ['i1', 'i2'].map(line).join('\n')), 'concord');
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'one-order', bootstrap: 0 });
    expect(r.positionConsistency).toEqual({ value: null, reason: 'no_both_orders' });
    // The overall CSV says so: no pair judged in both orders, an empty rate and its reason.
    const [head, row] = parseCsv(reportCsv('alignment', 'overall', r).join(''));
    const cell = (name: string) => row[head.indexOf(name)];
    expect(head.slice(-5)).toEqual([
      'position_consistency_n',
      'position_consistency',
      'position_consistency_lower',
      'position_consistency_upper',
      'position_consistency_reason',
    ]);
    expect(row.slice(-5)).toEqual(['0', '', '', '', 'no_both_orders']);
    expect(cell('judge')).toBe('one-order');
  });

  it('refuses an unknown judge run', () => {
    expect(codeOf(() => alignmentReport(lead, studyId, 'alignment', { judge: 'nobody' }))).toBe('not_found');
  });
});

describe('the alignment report as the API, the CLI and the downloads give it', () => {
  // Held to the output of the pairwise use-case before it was folded with the rubric one into one core: the JSON
  // (with bootstrap intervals) and every CSV table, byte for byte.
  it('gives the same JSON and CSV tables as before the fold', async () => {
    const r = alignmentReport(lead, studyId, 'alignment', { judge: 'j1', bootstrap: 200 });
    const tables = Object.fromEntries(REPORT_TABLES.alignment.map((t) => [t, reportCsv('alignment', t, r).join('')]));
    await expect(`${JSON.stringify({ json: reportJson(r), tables }, null, 1)}\n`).toMatchFileSnapshot(
      './__snapshots__/alignment-pairwise.json',
    );
  });
});

describe('agreement before adjudication', () => {
  it('reports each annotator pair on the items it shares, and Fleiss κ also for unequal numbers of ratings', () => {
    const r = agreementReport(lead, studyId, { bootstrap: 0 });
    const overall = r.criteria.find((c) => c.criterion === 'overall')!;
    // i5 has two labels, the others three: Gwet's generalised Fleiss κ (lib/stats/SPEC.md). By hand, with
    // overall W W W | L L T | W T W | T T L | L L: P̄ = 3/5; π = (L 2/5, T 4/15, W 1/3), Pₑ = 77/225; κ = 29/74.
    expect(overall.fleissKappa.value).toBeCloseTo(29 / 74, 12);
    expect(overall).toMatchObject({ items: 5, ratings: 14 });
    // Mean per-item share of agreeing pairs: i1 1, i2 1/3, i3 1/3, i4 1/3, i5 1 → 3/5.
    expect(overall.percentAgreement.value).toBeCloseTo(0.6, 12);
    expect(overall.intervals.percentAgreement.method).toBe('bootstrap');
    expect(overall.pairs.map((p) => [p.annotators, p.items, p.percentAgreement.value])).toEqual([
      [['ann1', 'ann2'], 5, 0.8],
      [['ann1', 'ann3'], 4, 0.5],
      [['ann2', 'ann3'], 4, 0.25],
    ]);
    // ann1 × ann2 on overall: rows ann1 (L, T, W) = [2,0,0], [0,1,0], [0,1,1]; p_o = 4/5, p_e = 8/25 → κ = 12/17.
    expect(overall.pairs[0].cohenKappa.value).toBeCloseTo(12 / 17, 12);
    // On clarity ann1 and ann2 agree everywhere, with variation: κ = 1.
    expect(r.criteria.find((c) => c.criterion === 'clarity')!.pairs[0].cohenKappa.value).toBeCloseTo(1, 12);
    // Every criterion has Fleiss' κ now, so its macro mean includes all three.
    expect(r.macro.criteriaIncluded.fleissKappa).toBe(3);
  });
});

describe('who may read the reports', () => {
  it('refuses annotators every report', () => {
    expect(codeOf(() => agreementReport(annotator, studyId))).toBe('forbidden');
    expect(codeOf(() => alignmentReport(annotator, studyId, 'alignment', { judge: 'j1' }))).toBe('forbidden');
    expect(codeOf(() => leaderboardReport(annotator, studyId))).toBe('forbidden');
    expect(codeOf(() => hybridReport(annotator, studyId, { judge: 'j1' }))).toBe('forbidden');
  });
});

describe('which labels count', () => {
  it('takes the newest revision of each submitted annotation', () => {
    const id = buildStudy(lead, dir, {
      name: 'Revised',
      reviewersPerItem: 2,
      catalog: [],
      items: [
        { id: 'r1', model: 'm1' },
        { id: 'r2', model: 'm1' },
      ],
      annotations: [
        { item: 'r1', annotator: 'ann1', labels: { overall: 'win' } },
        { item: 'r1', annotator: 'ann2', labels: { overall: 'lose' } },
        { item: 'r2', annotator: 'ann1', labels: { overall: 'tie' } },
        { item: 'r2', annotator: 'ann2', labels: { overall: 'tie' } },
      ],
      judges: [],
    });
    const before = agreementReport(lead, id, { bootstrap: 0 }).criteria[0].pairs[0];
    expect(before.percentAgreement.value).toBe(0.5);
    // ann1 revises r1 to agree with ann2 (annotations are append-only: a second revision).
    const db = getDb().$client;
    const assignment = db
      .prepare(
        `SELECT a.id FROM assignments a JOIN items i ON i.id = a.item_id JOIN users u ON u.id = a.user_id WHERE i.study_id = ? AND i.external_id = 'r1' AND u.username = 'ann1'`,
      )
      .pluck()
      .get(id) as number;
    const annotation = db
      .prepare(`INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, 2, 'revise-r1', ?)`)
      .run(assignment, lead.id);
    db.prepare(`INSERT INTO labels (annotation_id, criterion, label) VALUES (?, 'overall', 'lose')`).run(annotation.lastInsertRowid);
    const after = agreementReport(lead, id, { bootstrap: 0 }).criteria[0].pairs[0];
    expect(after).toMatchObject({ items: 2, percentAgreement: { value: 1 } });
  });
});
