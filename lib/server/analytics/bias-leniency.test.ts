import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicDataPath } from '@/lib/io/public-data';
import { reportCsv } from '@/lib/io/report-csv';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy } from '../studies/studies';
import { biasReport } from './bias';
import { GROUND_TRUTH_GRADER } from './leaderboard';

/*
 * The bias report of a rubric study: a judge's leniency against the ground truth on the same replies, and the length
 * bias of the desired label — on small studies made by the real use-cases with counts worked out by hand, and on the
 * MRBench V3 dev set against a logistic fit made here from the raw file.
 */
const { dir } = useTestDatabase();
let lead: Actor;
const MI = 'mistake_identification';
type Label = 'No' | 'To some extent' | 'Yes';

let files = 0;
const jsonl = (lines: unknown[]) => writeTemp(dir, `f${++files}.jsonl`, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});

/** A one-reviewer MRBench-scale study whose reply k has `length(k)` characters. */
function study(name: string, n: number, length: (k: number) => number, gold: (k: number) => Label) {
  const id = createStudy(lead, { kind: 'rubric', name, dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
  const ids = Array.from({ length: n }, (_, k) => `b-${String(k).padStart(2, '0')}`);
  importItems(
    lead,
    id,
    jsonl(
      ids.map((it, k) => ({
        id: it,
        history: [{ role: 'student', text: 'Is it 12?' }],
        reply: { source: 'T', text: 'x'.repeat(length(k)) },
      })),
    ),
    'concord',
  );
  importAnnotations(lead, id, jsonl(ids.map((it, k) => ({ item: it, annotator: 'r1', labels: { [MI]: gold(k) } }))));
  return { id, ids };
}

describe('leniency of a judge against the ground truth', () => {
  it('counts the replies where only one of them gave the desired label, with McNemar’s exact test', () => {
    // Ground truth: Yes on replies 0–3, To some extent on 4–7, No on 8–9.
    const gold = (k: number): Label => (k < 4 ? 'Yes' : k < 8 ? 'To some extent' : 'No');
    const { id, ids } = study('Leniency', 10, (k) => 10 + k, gold);
    // The judge says Yes on 0–2 and 4–8: desired only by the judge on 4–8 (5), only by the ground truth on 3 (1).
    importJudge(
      lead,
      id,
      jsonl(ids.map((it, k) => ({ item: it, judge: 'kind', labels: { [MI]: k === 3 || k === 9 ? 'No' : 'Yes' } }))),
      'concord',
    );
    const strict = biasReport(lead, id, 'rubric-bias');
    expect(strict).toMatchObject({ kind: 'rubric', sample: 1, lenient: false });
    const l = strict.leniency.find((x) => x.judge === 'kind' && x.criterion === MI)!;
    expect(strict.samples).toEqual([1]);
    expect(l).toMatchObject({ n: 10, judgeDesired: 8, groundTruthDesired: 4, judgeOnly: 5, groundTruthOnly: 1 });
    expect(l.difference.value).toBeCloseTo(0.4, 12);
    // Two-sided exact binomial test of 5 of 6 against ½: 2 · (C(6,5) + C(6,6)) / 2^6 = 14/64.
    expect(l.judgeMoreLenient).toMatchObject({ count: 5, discordant: 6 });
    expect(l.judgeMoreLenient.rate.value).toBeCloseTo(5 / 6, 12);
    expect(l.judgeMoreLenient.pValue.value).toBeCloseTo(14 / 64, 12);
    // Leniently "To some extent" counts as desired: the ground truth has it on 0–7, the judge on 0–2 and 4–8.
    const lenient = biasReport(lead, id, 'rubric-bias', { lenient: 'true' }).leniency.find(
      (x) => x.judge === 'kind' && x.criterion === MI,
    )!;
    expect(lenient).toMatchObject({ groundTruthDesired: 8, judgeDesired: 8, judgeOnly: 1, groundTruthOnly: 1 });
    expect(lenient.judgeMoreLenient.pValue.value).toBeCloseTo(1, 12);

    // As CSV, one row per judge and dimension, with the sample and the folding.
    const rows = parseCsv(reportCsv('rubric-bias', 'leniency', strict).join(''));
    const row = Object.fromEntries(rows[0].map((h, k) => [h, rows[1][k]]));
    expect(rows).toHaveLength(2);
    expect(row).toMatchObject({ judge: 'kind', sample: '1', lenient: 'false', dimension: MI, judge_only: '5', ground_truth_only: '1' });
    expect(Number(row.mcnemar_exact_p_value)).toBeCloseTo(14 / 64, 12);
  });

  it('refuses a bad sample and a report on a pairwise study', () => {
    const { id } = study(
      'Options',
      2,
      () => 5,
      () => 'Yes',
    );
    expect(() => biasReport(lead, id, 'rubric-bias', { sample: 0 })).toThrow(/sample must be at least 1/);
    expect(() => biasReport(lead, id, 'rubric-bias', { lenient: 'perhaps' })).toThrow(/lenient is true or false/);
    const pairwise = createStudy(lead, { kind: 'pairwise', name: 'Pairs' }).id;
    expect(() => biasReport(lead, pairwise, 'rubric-bias')).toThrow(/for rubric studies/);
  });
});

/** Newton–Raphson fit of logit P(y = 1) = a + b·x; returns b. Written here, apart from lib/stats. */
function logisticSlope(x: number[], y: number[]): number {
  let a = 0;
  let b = 0;
  for (let iter = 0; iter < 50; iter++) {
    let g0 = 0;
    let g1 = 0;
    let h00 = 0;
    let h01 = 0;
    let h11 = 0;
    for (let i = 0; i < x.length; i++) {
      const p = 1 / (1 + Math.exp(-(a + b * x[i])));
      const w = p * (1 - p);
      g0 += y[i] - p;
      g1 += (y[i] - p) * x[i];
      h00 += w;
      h01 += w * x[i];
      h11 += w * x[i] * x[i];
    }
    const det = h00 * h11 - h01 * h01;
    a += (h11 * g0 - h01 * g1) / det;
    b += (h00 * g1 - h01 * g0) / det;
  }
  return b;
}

describe('length bias of the desired label', () => {
  it('gives the desired share per fifth of the reply length and the slope on ln(1 + length)', () => {
    // 25 replies of 1…25 characters; in the k-th fifth, k of 5 replies have Yes (the longest ones of the fifth).
    const gold = (k: number): Label => (k % 5 >= 5 - (Math.floor(k / 5) + 1) ? 'Yes' : 'No');
    const { id } = study('Length', 25, (k) => k + 1, gold);
    const r = biasReport(lead, id, 'rubric-bias');
    const gt = r.length.find((x) => x.grader === GROUND_TRUTH_GRADER && x.criterion === MI)!;
    expect(gt).toMatchObject({ n: 25, desired: 15 });
    expect(gt.bins!.map((b) => [b.n, b.desired])).toEqual([
      [5, 1],
      [5, 2],
      [5, 3],
      [5, 4],
      [5, 5],
    ]);
    const x = Array.from({ length: 25 }, (_, k) => Math.log1p(k + 1));
    const y = Array.from({ length: 25 }, (_, k) => (gold(k) === 'Yes' ? 1 : 0));
    expect(gt.slope.value!).toBeGreaterThan(0);
    expect(gt.slope.value!).toBeCloseTo(logisticSlope(x, y), 6);
    // Only the dimension that was labelled is reported.
    expect(r.length.map((l) => l.criterion)).toEqual([MI]);
  });

  it('says why there is no length bias when no item has a reply', () => {
    const id = createStudy(lead, { kind: 'rubric', name: 'Dialogues', dimensions: 'ok-reject', reviewersPerItem: 1 }).id;
    importItems(lead, id, jsonl([{ id: 'd1', history: [{ role: 'tutor', text: 'Hello' }] }]), 'concord');
    expect(biasReport(lead, id, 'rubric-bias')).toMatchObject({ length: [], leniency: [], lengthReason: 'no_reply_text' });
  });
});

/*
 * MRBench V3 dev set through the real importer, its published labels the only reviewer (so the ground truth): the
 * slope of "Yes" on ln(1 + reply length) per dimension must equal a fit made here from the raw JSON.
 */
describe('MRBench V3 dev set: length bias of the published labels against the raw file', () => {
  const file = publicDataPath('mrbench', 'mrbench_v3_devset.json');
  const FIELDS = ['Mistake_Identification', 'Mistake_Location', 'Providing_Guidance', 'Actionability'];
  let mrbench: number;
  beforeAll(() => {
    mrbench = createStudy(lead, { kind: 'rubric', name: 'MRBench V3', dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
    importItems(lead, mrbench, file, 'mrbench');
  }, 60_000);

  it('matches the count, the Yes count and the slope of every dimension, strictly and leniently', () => {
    type Raw = { tutor_responses: Record<string, { response: string; annotation: Record<string, string> }> };
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Raw[];
    for (const lenient of [false, true]) {
      const r = biasReport(lead, mrbench, 'rubric-bias', { lenient });
      for (const field of FIELDS) {
        const x: number[] = [];
        const y: number[] = [];
        for (const d of raw) {
          for (const reply of Object.values(d.tutor_responses)) {
            const label = reply.annotation[field];
            // The importer keeps the reply trimmed; characters as SQLite counts them: code points.
            x.push(Math.log1p([...reply.response.trim()].length));
            y.push(label === 'Yes' || (lenient && label === 'To some extent') ? 1 : 0);
          }
        }
        const gt = r.length.find((l) => l.grader === GROUND_TRUTH_GRADER && l.criterion === field.toLowerCase())!;
        expect(gt.n, field).toBe(x.length);
        expect(gt.desired, field).toBe(y.reduce((s, v) => s + v, 0));
        expect(gt.slope.value!, `${field}${lenient ? ' lenient' : ''}`).toBeCloseTo(logisticSlope(x, y), 6);
      }
    }
  });
});
