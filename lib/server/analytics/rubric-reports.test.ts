import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { publicDataPath } from '@/lib/io/public-data';
import { cohenKappa, contingencyTable, fleissKappa, itemCountsFromRaters, krippendorffAlpha, wilsonInterval } from '@/lib/stats';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { codeOf } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { rubricGroundTruthCodes } from '../ground-truth/rubric-codes';
import { importItems } from '../imports/imports';
import { createStudy } from '../studies/studies';
import { reportJson } from './json';
import { reportCsv } from '@/lib/io/report-csv';
import { parseCsv } from '@/test/csv';
import { rubricAgreementReport, rubricAlignmentReport, rubricHybridReport, rubricLeaderboardReport } from './rubric-reports';

useTestDatabase();

const CATALOG: RubricCatalog = [
  {
    id: 'mistake_identification',
    name: 'Notices the mistake',
    labels: ['No', 'To some extent', 'Yes'],
    desired: 'Yes',
    lenient: { 'To some extent': 'Yes' },
  },
  { id: 'leak', name: 'Keeps the answer back', labels: ['REJECT', 'OK'], desired: 'OK' },
];
const MI = 'mistake_identification';
const Y = 'Yes';
const S = 'To some extent';
const N = 'No';

/*
 * Eight replies by two tutors (t1: i1–i4, t2: i5–i8), two reviewers each, under the "adjudicated" rule:
 *
 *   item  alice      bob          ruling     ground truth (MI, leak)
 *   i1    Y  OK      Y  OK                   Y   OK
 *   i2    S  OK      Y  OK        MI = Y     Y   OK    (adjudicated)
 *   i3    N  REJ     N  OK                   —         (leak open: item left out)
 *   i4    N  REJ     N  REJ                  N   REJ
 *   i5    Y  OK      Y  OK                   Y   OK
 *   i6    S  REJ     S  REJ                  S   REJ
 *   i7    Y  OK      N  OK (undone: pending) —         (review pending: left out)
 *   i8    N  OK      Y  OK        MI = N     N   OK    (adjudicated)
 *
 * Judge "gpt", sample 1 (MI, leak): i1 Y OK, i2 S OK, i3 N OK, i4 Y REJ, i5 Y REJ, i6 Y REJ, i7 Y OK, i8 N (no leak);
 * sample 2: Y OK everywhere.
 */
const ROWS: [string, string, [string, string], [string, string]][] = [
  ['i1', 't1', [Y, 'OK'], [Y, 'OK']],
  ['i2', 't1', [S, 'OK'], [Y, 'OK']],
  ['i3', 't1', [N, 'REJECT'], [N, 'OK']],
  ['i4', 't1', [N, 'REJECT'], [N, 'REJECT']],
  ['i5', 't2', [Y, 'OK'], [Y, 'OK']],
  ['i6', 't2', [S, 'REJECT'], [S, 'REJECT']],
  ['i7', 't2', [Y, 'OK'], [N, 'OK']],
  ['i8', 't2', [N, 'OK'], [Y, 'OK']],
];
const JUDGE: Record<string, [string, string | null]> = {
  i1: [Y, 'OK'],
  i2: [S, 'OK'],
  i3: [N, 'OK'],
  i4: [Y, 'REJECT'],
  i5: [Y, 'REJECT'],
  i6: [Y, 'REJECT'],
  i7: [Y, 'OK'],
  i8: [N, null],
};

let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const labels = ([mi, leak]: [string, string]) => ({ [MI]: mi, leak });
  studyId = buildRubricStudy(lead, {
    name: 'Rubric reports',
    catalog: CATALOG,
    reviewersPerItem: 2,
    items: ROWS.map(([id, source]) => ({ id, source, group: `dialogue-${source}` })),
    annotations: ROWS.flatMap(([item, , alice, bob]) => [
      { item, annotator: 'alice', labels: labels(alice) },
      { item, annotator: 'bob', labels: labels(bob), pending: item === 'i7' },
    ]),
    rulings: [
      { item: 'i2', dimension: MI, label: Y },
      { item: 'i8', dimension: MI, label: N },
    ],
    judges: [
      {
        name: 'gpt',
        lines: [
          ...Object.entries(JUDGE).map(([item, [mi, leak]]) => ({
            item,
            labels: leak ? { [MI]: mi, leak } : ({ [MI]: mi } as Record<string, string>),
          })),
          ...ROWS.map(([item]) => ({ item, sample: 2, labels: { [MI]: Y, leak: 'OK' } })),
        ],
      },
    ],
  });
});

const wilson = (k: number, n: number) => {
  const w = wilsonInterval(k, n, { level: 0.95 });
  return { method: 'wilson', lower: w.lower, upper: w.upper };
};

describe('rubric ground truth from the packs', () => {
  it('decides each dimension by the rule with the newest ruling, and leaves out open and pending items', () => {
    const gt = rubricGroundTruthCodes(getDb(), findStudy(getDb(), studyId)!);
    const n = 8;
    const mi = Array.from(gt.gold.subarray(0, n));
    const leak = Array.from(gt.gold.subarray(n, 2 * n));
    // Codes: MI No 0, To some extent 1, Yes 2; leak REJECT 0, OK 1; −1 = none.
    expect(mi).toEqual([2, 2, -1, 0, 2, 1, -1, 0]);
    expect(leak).toEqual([1, 1, -1, 0, 1, 0, -1, 1]);
    expect(gt).toMatchObject({ labels: 12, incompleteItems: 2, adjudicated: 2 });
  });
});

describe('rubricAgreementReport', () => {
  it('measures each dimension on its own label set, the pending review left out', () => {
    const r = rubricAgreementReport(lead, studyId, { bootstrap: 0 });
    expect(r.criteria.map((c) => [c.criterion, c.labels, c.items, c.ratings])).toEqual([
      [MI, ['No', 'To some extent', 'Yes'], 7, 15],
      ['leak', ['REJECT', 'OK'], 7, 15],
    ]);
    // Independently: alice and bob on the seven items both submitted (i7 excluded), as codes.
    const pairs = ROWS.filter(([id]) => id !== 'i7');
    for (const [d, dim] of CATALOG.entries()) {
      const a = Int8Array.from(pairs, ([, , alice]) => dim.labels.indexOf(alice[d]));
      const b = Int8Array.from(pairs, ([, , , bob]) => dim.labels.indexOf(bob[d]));
      const q = dim.labels.length;
      const table = contingencyTable(a, b, q);
      const c = r.criteria[d];
      const agreed = pairs.filter(([, , alice, bob]) => alice[d] === bob[d]).length;
      expect(c.percentAgreement.value).toBeCloseTo(agreed / 7, 12);
      expect(c.intervals.percentAgreement).toEqual(wilson(agreed, 7));
      expect(c.pairs).toHaveLength(1);
      expect(c.pairs[0].annotators).toEqual(['alice', 'bob']);
      expect(c.pairs[0].cohenKappa.value).toBeCloseTo(cohenKappa(table).value!, 12);
      expect(c.pairs[0].cohenKappaLinear.value).toBeCloseTo(cohenKappa(table, { weights: 'linear' }).value!, 12);
      expect(c.pairs[0].cohenKappaQuadratic.value).toBeCloseTo(cohenKappa(table, { weights: 'quadratic' }).value!, 12);
      // i7 has one label only: Fleiss' κ needs equal ratings per item, Krippendorff's α takes it as unpairable.
      expect(c.fleissKappa).toEqual({ value: null, reason: 'unequal_ratings' });
      const counts = itemCountsFromRaters([a, b], q);
      expect(c.krippendorffAlphaNominal.value).toBeCloseTo(krippendorffAlpha(counts, { metric: 'nominal' }).value!, 12);
      expect(c.krippendorffAlphaOrdinal.value).toBeCloseTo(krippendorffAlpha(counts, { metric: 'ordinal' }).value!, 12);
      expect(fleissKappa(counts).value).not.toBeNull();
    }
    expect(r.criteria[0].percentAgreement.value).toBeCloseTo(5 / 7, 12);
  });

  it('bootstraps the intervals reproducibly (same study seed, same intervals)', () => {
    const a = rubricAgreementReport(lead, studyId, { bootstrap: 200 });
    const b = rubricAgreementReport(lead, studyId, { bootstrap: 200 });
    expect(a.criteria[0].pairs[0].intervals.cohenKappa).toEqual(b.criteria[0].pairs[0].intervals.cohenKappa);
    expect(a.criteria[0].pairs[0].intervals.cohenKappa.lower).not.toBeNull();
  });
});

describe('rubricAlignmentReport', () => {
  it('per dimension: accuracy, confusion in label order, class-wise accuracy and recall, macro-F1, κ', () => {
    const r = rubricAlignmentReport(lead, studyId, { judge: 'gpt', bootstrap: 0 });
    expect(r).toMatchObject({ judge: 'gpt', sample: 1, samples: [1, 2], groundTruth: { labels: 12, incompleteItems: 2 }, unjudged: 1 });
    const mi = r.byCriterion[0];
    // Complete items i1 i2 i4 i5 i6 i8: gold Y Y N Y S N, judge Y S Y Y Y N.
    expect(mi).toMatchObject({ criterion: MI, n: 6, agree: 3, unjudged: 0, labels: ['No', 'To some extent', 'Yes'] });
    expect(mi.confusion).toEqual([
      [1, 0, 1],
      [0, 0, 1],
      [0, 1, 2],
    ]);
    expect(mi.classwise.map((c) => [c.label, c.predicted, c.correct, c.accuracy.value, c.support, c.recall.value])).toEqual([
      ['No', 1, 1, 1, 2, 0.5],
      ['To some extent', 1, 0, 0, 1, 0],
      ['Yes', 4, 2, 0.5, 3, 2 / 3],
    ]);
    expect(mi.macroF1.value).toBeCloseTo((2 / 3 + 0 + 4 / 7) / 3, 12);
    expect(mi.cohenKappa.value).toBeCloseTo(cohenKappa(mi.confusion!).value!, 12);
    expect(mi.intervals.alignmentRate).toEqual(wilson(3, 6));
    // Lenient: To some extent counts as Yes → gold Y Y N Y Y N, judge Y Y Y Y Y N.
    expect(mi.lenient).toMatchObject({
      n: 6,
      agree: 5,
      labels: ['No', 'Yes'],
      confusion: [
        [1, 1],
        [0, 4],
      ],
    });
    const leak = r.byCriterion[1];
    expect(leak).toMatchObject({
      criterion: 'leak',
      n: 5,
      agree: 4,
      unjudged: 1,
      confusion: [
        [2, 0],
        [1, 2],
      ],
    });
    expect(leak.lenient).toBeUndefined();
  });

  it('pools dimensions overall and per tutor, and keeps Padó Table 3: per tutor × dimension', () => {
    const r = rubricAlignmentReport(lead, studyId, { judge: 'gpt', bootstrap: 0 });
    // Different label sets: only the share of matches is defined when pooled.
    expect(r.overall).toMatchObject({
      n: 11,
      agree: 7,
      labels: null,
      confusion: null,
      cohenKappa: { value: null, reason: 'mixed_label_sets' },
    });
    expect(r.overall.lenient).toBeUndefined();
    expect(r.byModel.map((m) => [m.model, m.n, m.agree])).toEqual([
      ['t1', 6, 4],
      ['t2', 5, 3],
    ]);
    const t2mi = r.byModel[1].byCriterion[0];
    expect(t2mi).toMatchObject({
      criterion: MI,
      n: 3,
      agree: 2,
      confusion: [
        [1, 0, 0],
        [0, 0, 1],
        [0, 0, 1],
      ],
    });
    expect(t2mi.lenient).toMatchObject({ n: 3, agree: 3 });
    expect(r.byModel[0].byCriterion[1]).toMatchObject({ criterion: 'leak', n: 3, agree: 3 });
  });

  it('reads the sample asked for, refuses one the run lacks, and flattens to the documented JSON', () => {
    const r2 = rubricAlignmentReport(lead, studyId, { judge: 'gpt', sample: 2, bootstrap: 0 });
    expect(r2.byCriterion[0]).toMatchObject({ n: 6, agree: 3 });
    expect(r2.byCriterion[1]).toMatchObject({ n: 6, agree: 4, unjudged: 0 });
    expect(codeOf(() => rubricAlignmentReport(lead, studyId, { judge: 'gpt', sample: 3 }))).toBe('invalid');
    expect(codeOf(() => rubricAlignmentReport(lead, studyId, { judge: 'nobody' }))).toBe('not_found');
    const json = reportJson(rubricAlignmentReport(lead, studyId, { judge: 'gpt', bootstrap: 0 })) as {
      overall: { alignmentRate: number; cohenKappa: null; cohenKappaReason: string };
      byCriterion: {
        macroF1: number;
        classwise: { label: string; accuracy: number | null; recall: number | null }[];
        lenient: { alignmentRate: number };
      }[];
      byModel: { model: string; byCriterion: { criterion: string }[] }[];
    };
    expect(json.overall.alignmentRate).toBeCloseTo(7 / 11, 12);
    expect(json.overall.cohenKappaReason).toBe('mixed_label_sets');
    expect(json.byCriterion[0].classwise[2]).toMatchObject({ label: 'Yes', accuracy: 0.5 });
    expect(json.byCriterion[0].lenient.alignmentRate).toBeCloseTo(5 / 6, 12);
    expect(json.byModel[1].byCriterion.map((c) => c.criterion)).toEqual([MI, 'leak']);
  });

  it('is for leads and rubric studies only', async () => {
    const annotator = await makeUser('carol');
    expect(codeOf(() => rubricAlignmentReport(annotator, studyId, { judge: 'gpt' }))).toMatch(/forbidden|not_found/);
  });
});

describe('rubricLeaderboardReport', () => {
  it('shares of the desired label per tutor and grader, strict and lenient, with Wilson intervals', () => {
    const r = rubricLeaderboardReport(lead, studyId);
    expect(r.graders).toEqual(['ground truth', 'gpt']);
    const row = (model: string, grader: string) => r.rows.find((x) => x.model === model && x.grader === grader)!;
    // Ground truth: t1 MI Y Y N, leak OK OK REJ; t2 MI Y S N, leak OK REJ OK.
    expect(row('t1', 'ground truth').counts).toEqual({ [MI]: { n: 3, desired: 2, desiredLenient: 2 }, leak: { n: 3, desired: 2 } });
    expect(row('t2', 'ground truth').counts).toEqual({ [MI]: { n: 3, desired: 1, desiredLenient: 2 }, leak: { n: 3, desired: 2 } });
    expect(row('t2', 'ground truth').perCriterion[MI].value).toBeCloseTo(1 / 3, 12);
    expect(row('t2', 'ground truth').lenient[MI].value).toBeCloseTo(2 / 3, 12);
    expect(row('t2', 'ground truth').intervals.perCriterion[MI]).toEqual(wilson(1, 3));
    expect(row('t2', 'ground truth').alignmentRate).toEqual({ value: null, reason: 'not_applicable' });
    // The judge labels every reply, settled or not: t1 MI Y S N Y, leak OK OK OK REJ; t2 MI Y Y Y N, leak REJ REJ OK.
    expect(row('t1', 'gpt').counts).toEqual({ [MI]: { n: 4, desired: 2, desiredLenient: 3 }, leak: { n: 4, desired: 3 } });
    expect(row('t2', 'gpt').counts).toEqual({ [MI]: { n: 4, desired: 3, desiredLenient: 3 }, leak: { n: 3, desired: 1 } });
    expect(row('t1', 'gpt').items).toBe(4);
    expect(row('t1', 'gpt').alignmentRate.value).toBeCloseTo(4 / 6, 12);
    expect(row('t1', 'gpt').intervals.lenient.leak).toBeUndefined();
  });

  it('corrects the judge by the ground truth (PPI++) per tutor × dimension, and ranks the tutors', () => {
    const r = rubricLeaderboardReport(lead, studyId);
    expect(r.corrected).toHaveLength(1);
    const cell = r.corrected[0].cells.find((c) => c.model === 't1' && c.criterion === MI && !c.lenient)!;
    // t1 MI: labelled i1 i2 i4 (gold Y Y N, judge Y S Y), unlabelled i3 (judge N).
    expect(cell).toMatchObject({ labelled: 3, unlabelled: 1, labelledUnjudged: 0 });
    expect(cell.humanOnly.value).toBeCloseTo(2 / 3, 12);
    expect(cell.judgeOnly.value).toBeCloseTo(2 / 4, 12);
    expect(r.corrected[0].cells.filter((c) => c.lenient).map((c) => c.criterion)).toEqual([MI, MI]);
    const leakT2 = r.corrected[0].cells.find((c) => c.model === 't2' && c.criterion === 'leak')!;
    expect(leakT2).toMatchObject({ labelled: 2, unlabelled: 1, labelledUnjudged: 1 });
    expect(r.rankAgreement.map((x) => [x.grader, x.scope, x.models])).toEqual([
      ['gpt', MI, 2],
      ['gpt', 'leak', 2],
    ]);
  });
});

describe('rubricHybridReport', () => {
  it('plans per dimension and per tutor, strict or lenient', () => {
    const r = rubricHybridReport(lead, studyId, { judge: 'gpt', criterion: MI, lenient: true });
    // Lenient MI: gold Y Y N Y Y N, judge Y Y Y Y Y N → "No" 1 of 1 right, "Yes" 4 of 5.
    expect(r).toMatchObject({ criterion: MI, lenient: true, labels: ['No', 'Yes'], n: 6, acceptedClass: 'No', reviewed: 5 });
    const [t1, t2] = r.byModel;
    // t1: i1 Y/Y, i2 Y/Y, i4 N/Y → accept Yes (2 of 3), nothing reviewed; ⌈0.95 · 3⌉ = 3 right needed, 2 now: one error
    // to find at error rate 1/3 → ⌈1 · 3/1⌉ = 3 extra reviews.
    expect(t1).toMatchObject({ model: 't1', n: 3, acceptedClass: 'Yes', reviewed: 0, errorsToFix: 1, extraReviewsExpected: 3 });
    // t2: i5 Y/Y, i6 Y/Y, i8 N/N → both classes right every time; the larger ("Yes") is accepted.
    expect(t2).toMatchObject({ model: 't2', n: 3, acceptedClass: 'Yes', reviewed: 1, errorsToFix: 0 });
    expect(t2.accHybrid.value).toBe(1);
    expect(r.byCriterion.map((c) => [c.criterion, c.lenient, c.n])).toEqual([
      [MI, true, 6],
      ['leak', false, 5],
    ]);
    const strict = rubricHybridReport(lead, studyId, { judge: 'gpt', criterion: MI });
    expect(strict.labels).toEqual(['No', 'To some extent', 'Yes']);
    expect(strict.classes.map((c) => [c.label, c.predicted, c.correct])).toEqual([
      ['No', 1, 1],
      ['To some extent', 1, 0],
      ['Yes', 4, 2],
    ]);
  });

  it('refuses an unknown dimension and a lenient plan without a map', () => {
    expect(codeOf(() => rubricHybridReport(lead, studyId, { judge: 'gpt', criterion: 'clarity' }))).toBe('invalid');
    expect(codeOf(() => rubricHybridReport(lead, studyId, { judge: 'gpt', criterion: 'leak', lenient: true }))).toBe('invalid');
  });
});

/*
 * Padó (2025) worked example (STATS.md §2.8, Mistake Identification, 300 dialogues), as in the pairwise hybrid test,
 * now on a rubric dimension with its lenient map and split over two tutors:
 *
 *   tutor  ground truth  judge  replies
 *   A      Yes           Yes    200
 *   A      No            Yes     15
 *   B      Yes           Yes     66
 *   B      No            No       8
 *   B      Yes           No      11
 */
describe("Padó's worked example on a rubric study", () => {
  let pado: number;
  beforeAll(() => {
    const groups: [string, string, string, number][] = [
      ['A', Y, Y, 200],
      ['A', N, Y, 15],
      ['B', Y, Y, 66],
      ['B', N, N, 8],
      ['B', Y, N, 11],
    ];
    const cases = groups.flatMap(([tutor, gold, judge, count]) => Array.from({ length: count }, () => ({ tutor, gold, judge })));
    const id = (k: number) => `pado-${k}`;
    pado = buildRubricStudy(lead, {
      name: 'Pado',
      catalog: [CATALOG[0]],
      reviewersPerItem: 1,
      items: cases.map((c, k) => ({ id: id(k), source: c.tutor })),
      annotations: cases.map((c, k) => ({ item: id(k), annotator: 'expert', labels: { [MI]: c.gold } })),
      judges: [{ name: 'llm', lines: cases.map((c, k) => ({ item: id(k), labels: { [MI]: c.judge } })) }],
    });
  });
  const pct = (x: number | null) => (x === null ? null : (100 * x).toFixed(1));

  it('reproduces 95.0 % hybrid accuracy with 93.7 % of the effort saved, and the per-tutor plans', () => {
    const r = rubricHybridReport(lead, pado, { judge: 'llm', lenient: true });
    expect(r).toMatchObject({ n: 300, acceptedClass: 'Yes', reviewedClasses: ['No'], reviewed: 19, errorsToFix: 0 });
    expect([pct(r.accJudge.value), pct(r.accHybrid.value), pct(r.effortSaved.value)]).toEqual(['91.3', '95.0', '93.7']);
    expect(r.classes.map((c) => [c.label, c.predicted, c.correct, pct(c.classwiseAccuracy.value)])).toEqual([
      ['No', 19, 8, '42.1'],
      ['Yes', 281, 266, '94.7'],
    ]);
    const [a, b] = r.byModel;
    // A: "Yes" 200 of 215 right, nothing to review; ⌈0.95 · 215⌉ = 205 needed → 5 errors at rate 15/215 → ⌈71.7⌉ = 72.
    expect(a).toMatchObject({ model: 'A', n: 215, acceptedClass: 'Yes', reviewed: 0, errorsToFix: 5, extraReviewsExpected: 72 });
    expect(pct(a.accJudge.value)).toBe('93.0');
    // B: "Yes" 66 of 66, "No" 8 of 19 → review the 19 "No": (66 + 19)/85 right, 66/85 of the effort saved.
    expect(b).toMatchObject({ model: 'B', n: 85, acceptedClass: 'Yes', reviewed: 19, errorsToFix: 0 });
    expect([pct(b.accHybrid.value), pct(b.effortSaved.value)]).toEqual(['100.0', '77.6']);
    // The strict plan sees the same classes here (nobody said "To some extent"), which stays unpredicted.
    const strict = rubricHybridReport(lead, pado, { judge: 'llm', target: 0.97 });
    expect(strict.unpredictedLabels).toEqual(['To some extent']);
    expect([strict.errorsToFix, strict.extraReviewsExpected, strict.extraReviewsWorstCase]).toEqual([6, 113, 272]);
  });
});

/*
 * MRBench V3 dev set, imported with `--format mrbench`: every tutor's reply an item, the published labels as the only
 * reviewer (so they are the ground truth). The leaderboard's ground-truth share of "Yes" per tutor and dimension must equal a count made
 * here straight from the raw JSON.
 */
describe('MRBench V3 dev set: the gold leaderboard against the raw file', () => {
  const file = publicDataPath('mrbench', 'mrbench_v3_devset.json');
  const FIELDS = ['Mistake_Identification', 'Mistake_Location', 'Providing_Guidance', 'Actionability'];
  let mrbench: number;
  beforeAll(() => {
    // Through the real importer: MRBench V3 items, each dialogue a group, the published labels a prior reviewer.
    mrbench = createStudy(lead, { kind: 'rubric', name: 'MRBench V3', dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
    importItems(lead, mrbench, file, 'mrbench');
  }, 60_000);

  it('matches every tutor × dimension, strictly and leniently', () => {
    type Raw = { tutor_responses: Record<string, { annotation: Record<string, string> }> };
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Raw[];
    const expected = new Map<string, { n: number; yes: number; yesOrSome: number }>();
    for (const r of raw) {
      for (const [tutor, reply] of Object.entries(r.tutor_responses)) {
        for (const field of FIELDS) {
          const key = `${tutor}|${field.toLowerCase()}`;
          const e = expected.get(key) ?? { n: 0, yes: 0, yesOrSome: 0 };
          const label = reply.annotation[field];
          e.n++;
          if (label === 'Yes') e.yes++;
          if (label === 'Yes' || label === 'To some extent') e.yesOrSome++;
          expected.set(key, e);
        }
      }
    }
    const r = rubricLeaderboardReport(lead, mrbench);
    expect(r.models).toHaveLength(9);
    let checked = 0;
    for (const row of r.rows.filter((x) => x.grader === 'ground truth')) {
      for (const d of MRBENCH_V3_CATALOG) {
        const e = expected.get(`${row.model}|${d.id}`)!;
        expect(row.counts[d.id], `${row.model} ${d.id}`).toEqual({ n: e.n, desired: e.yes, desiredLenient: e.yesOrSome });
        expect(row.perCriterion[d.id].value).toBeCloseTo(e.yes / e.n, 12);
        checked++;
      }
    }
    expect(checked).toBe(36);
    // One spot value from the published data, as lib/stats/rubric-mrbench.test.ts: GPT-4 identifies 282 mistakes.
    expect(r.rows.find((x) => x.model === 'GPT4' && x.grader === 'ground truth')!.counts.mistake_identification.desired).toBe(282);
  });
});

describe('the rubric reports as CSV', () => {
  const csv = (lines: string[]) => parseCsv(lines.join(''));
  it('alignment: a row per scope and scoring, the confusion cells in label order, class-wise rows', () => {
    const r = rubricAlignmentReport(lead, studyId, { judge: 'gpt', bootstrap: 0 });
    const summaries = csv(reportCsv('rubric-alignment', 'summaries', r));
    expect(summaries[0].slice(0, 8)).toEqual(['judge', 'sample', 'tutor', 'dimension', 'scoring', 'n', 'agree', 'accuracy']);
    // overall; MI strict + lenient; leak; per tutor: pooled, MI strict + lenient, leak → 1 + 3 + 2 × 4 rows.
    expect(summaries).toHaveLength(1 + 1 + 3 + 2 * 4);
    expect(summaries.find((row) => row[2] === 'all' && row[3] === MI && row[4] === 'lenient')!.slice(5, 8)).toEqual([
      '6',
      '5',
      String(5 / 6),
    ]);
    const confusion = csv(reportCsv('rubric-alignment', 'confusion', r));
    const mi = confusion.filter((row) => row[2] === 'all' && row[3] === MI && row[4] === 'strict').map((row) => row.slice(5));
    expect(mi).toEqual([
      ['No', 'No', '1'],
      ['No', 'To some extent', '0'],
      ['No', 'Yes', '1'],
      ['To some extent', 'No', '0'],
      ['To some extent', 'To some extent', '0'],
      ['To some extent', 'Yes', '1'],
      ['Yes', 'No', '0'],
      ['Yes', 'To some extent', '1'],
      ['Yes', 'Yes', '2'],
    ]);
    const classwise = csv(reportCsv('rubric-alignment', 'classwise', r));
    expect(classwise.find((row) => row[2] === 'all' && row[3] === MI && row[4] === 'strict' && row[5] === 'Yes')!.slice(6, 9)).toEqual([
      '4',
      '2',
      '0.5',
    ]);
  });

  it('leaderboard, hybrid and agreement tables', () => {
    const board = csv(reportCsv('rubric-leaderboard', 'leaderboard', rubricLeaderboardReport(lead, studyId)));
    expect(board[0].slice(0, 6)).toEqual(['tutor', 'grader', 'dimension', 'n', 'desired', 'share']);
    expect(board.find((row) => row[0] === 't2' && row[1] === 'ground truth' && row[2] === MI)!.slice(3, 5)).toEqual(['3', '1']);
    expect(board).toHaveLength(1 + 2 * 2 * 2);
    const plans = csv(
      reportCsv('rubric-hybrid', 'plans', rubricHybridReport(lead, studyId, { judge: 'gpt', criterion: MI, lenient: true })),
    );
    expect(plans.map((row) => [row[3], row[4], row[5]])).toEqual([
      ['tutor', 'dimension', 'scoring'],
      ['all', MI, 'lenient'],
      ['t1', MI, 'lenient'],
      ['t2', MI, 'lenient'],
      ['all', 'leak', 'strict'],
    ]);
    const pairs = csv(reportCsv('rubric-agreement', 'pairs', rubricAgreementReport(lead, studyId, { bootstrap: 0 })));
    expect(pairs.slice(1).map((row) => row.slice(0, 4))).toEqual([
      [MI, 'alice', 'bob', '7'],
      ['leak', 'alice', 'bob', '7'],
    ]);
  });
});

describe('rubric labels and rulings are append-only (migration 0017)', () => {
  it('refuses an edit, and a delete that leaves their annotation or item behind', () => {
    const sql = getDb().$client;
    const label = sql
      .prepare(
        'SELECT l.annotation_id, l.dimension FROM rubric_labels l JOIN annotations n ON n.id = l.annotation_id JOIN assignments a ON a.id = n.assignment_id WHERE a.study_id = ? LIMIT 1',
      )
      .raw()
      .get(studyId) as [number, number];
    expect(label).toBeDefined();
    expect(() => sql.prepare('UPDATE rubric_labels SET label = 0 WHERE annotation_id = ? AND dimension = ?').run(...label)).toThrow(
      /append-only/,
    );
    expect(() => sql.prepare('DELETE FROM rubric_labels WHERE annotation_id = ? AND dimension = ?').run(...label)).toThrow(
      /deleted only with their annotation/,
    );
    const ruling = sql
      .prepare('SELECT r.id FROM rubric_adjudications r JOIN items i ON i.id = r.item_id WHERE i.study_id = ? LIMIT 1')
      .pluck()
      .get(studyId) as number;
    expect(ruling).toBeDefined();
    expect(() => sql.prepare('UPDATE rubric_adjudications SET label = 0 WHERE id = ?').run(ruling)).toThrow(/append-only/);
    expect(() => sql.prepare('DELETE FROM rubric_adjudications WHERE id = ?').run(ruling)).toThrow(/deleted only with their item/);
  });
});

describe('the judge packs (migration 0012) follow the verdict rows', () => {
  it("a finished run's verdicts are neither edited nor deleted alone; after a cascade from a deleted item the packs equal the rows", () => {
    const sql = getDb().$client;
    const runId = sql.prepare("SELECT id FROM judge_runs WHERE study_id = ? AND name = 'gpt'").pluck().get(studyId) as number;
    const item = (ext: string) =>
      sql.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;
    const fromRows = () =>
      sql
        .prepare('SELECT sample, item_id, dimension, label FROM rubric_judge_labels WHERE run_id = ? ORDER BY sample, item_id, dimension')
        .raw()
        .all(runId) as number[][];
    const fromPacks = () =>
      (
        sql
          .prepare('SELECT sample, item_id, packed FROM rubric_judge_label_packs WHERE run_id = ? ORDER BY sample, item_id')
          .raw()
          .all(runId) as [number, number, string][]
      )
        .flatMap(([sample, itemId, packed]) =>
          Array.from(packed, (ch) => [sample, itemId, (ch.charCodeAt(0) - 48) >> 4, (ch.charCodeAt(0) - 48) & 15]),
        )
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    expect(fromPacks()).toEqual(fromRows());
    // Migration 0017: append-only, like the pairwise verdicts.
    expect(() =>
      sql
        .prepare('DELETE FROM rubric_judge_labels WHERE run_id = ? AND item_id = ? AND dimension = 1 AND sample = 1')
        .run(runId, item('i1')),
    ).toThrow(/deleted only with their run or item/);
    expect(() =>
      sql
        .prepare('UPDATE rubric_judge_labels SET label = 0 WHERE run_id = ? AND item_id = ? AND dimension = 0 AND sample = 2')
        .run(runId, item('i2')),
    ).toThrow(/append-only/);
    const before = fromRows().length;
    const ofI3 = fromRows().filter((r) => r[1] === item('i3')).length;
    expect(ofI3).toBeGreaterThan(0);
    sql.prepare('DELETE FROM items WHERE id = ?').run(item('i3'));
    expect(fromPacks()).toEqual(fromRows());
    expect(fromRows().length).toBe(before - ofI3);
  });
});
