import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicDataPath } from '@/lib/io/public-data';
import { reportCsv } from '@/lib/io/report-csv';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { parseCsv } from '@/test/csv';
import { MI, wilson, lead, studyId, useReportsStudy } from '@/test/rubric-fixtures-study';
import { importItems } from '../imports/imports';
import { createStudy } from '../studies/studies';
import { rubricAgreementReport } from './agreement';
import { hybridReport } from './hybrid';
import { leaderboardReport } from './leaderboard';

useReportsStudy();

describe('leaderboardReport on a rubric study', () => {
  it('shares of the desired label per tutor and grader, strict and lenient, with Wilson intervals', () => {
    const r = leaderboardReport(lead, studyId, {}, 'rubric');
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
    const r = leaderboardReport(lead, studyId, {}, 'rubric');
    expect(r.corrected).toHaveLength(1);
    const cell = r.corrected[0].cells.find((c) => c.model === 't1' && c.criterion === MI && !c.lenient)!;
    // t1 MI: labelled i1 i2 i4 (gold Y Y N, judge Y S Y), unlabelled i3 (judge N).
    expect(cell).toMatchObject({ labelled: 3, unlabelled: 1, labelledUnjudged: 0 });
    expect(cell.humanOnly.value).toBeCloseTo(2 / 3, 12);
    expect(cell.judgeOnly.value).toBeCloseTo(2 / 4, 12);
    // one unlabelled reply: nothing to correct, so no interval to caution against
    expect(cell.corrected).toEqual({ value: null, reason: 'too_few_unlabelled_items' });
    expect(cell.caution).toBeNull();
    expect(r.corrected[0].cells.filter((c) => c.lenient).map((c) => c.criterion)).toEqual([MI, MI]);
    const leakT2 = r.corrected[0].cells.find((c) => c.model === 't2' && c.criterion === 'leak')!;
    expect(leakT2).toMatchObject({ labelled: 2, unlabelled: 1, labelledUnjudged: 1 });
    expect(r.rankAgreement.map((x) => [x.grader, x.scope, x.models])).toEqual([
      ['gpt', MI, 2],
      ['gpt', 'leak', 2],
    ]);
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
    const r = leaderboardReport(lead, mrbench, {}, 'rubric');
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

  it('leaderboard, hybrid and agreement tables', () => {
    const board = csv(reportCsv('rubric-leaderboard', 'leaderboard', leaderboardReport(lead, studyId, {}, 'rubric')));
    expect(board[0].slice(0, 6)).toEqual(['tutor', 'grader', 'dimension', 'n', 'desired', 'share']);
    expect(board.find((row) => row[0] === 't2' && row[1] === 'ground truth' && row[2] === MI)!.slice(3, 5)).toEqual(['3', '1']);
    expect(board).toHaveLength(1 + 2 * 2 * 2);
    const plans = csv(
      reportCsv('rubric-hybrid', 'plans', hybridReport(lead, studyId, { judge: 'gpt', criterion: MI, lenient: true }, 'rubric')),
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
