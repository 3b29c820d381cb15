import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { reportCsv } from '@/lib/io/report-csv';
import { cohenKappa } from '@/lib/stats';
import { codeOf } from '@/test/analytics-fixtures';
import { parseCsv } from '@/test/csv';
import { makeUser } from '@/test/db';
import { MI, wilson, lead, studyId, useReportsStudy } from '@/test/rubric-fixtures-study';
import { rubricGroundTruthCodes } from '../ground-truth/rubric-codes';
import { REPORT_TABLES } from './dto';
import { reportJson } from './json';
import { alignmentReport } from './alignment';

useReportsStudy();

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

describe('the alignment report of a rubric study', () => {
  it('per dimension: accuracy, confusion in label order, class-wise accuracy and recall, macro-F1, κ', () => {
    const r = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', bootstrap: 0 });
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
    const r = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', bootstrap: 0 });
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
    const r2 = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', sample: 2, bootstrap: 0 });
    expect(r2.byCriterion[0]).toMatchObject({ n: 6, agree: 3 });
    expect(r2.byCriterion[1]).toMatchObject({ n: 6, agree: 4, unjudged: 0 });
    expect(codeOf(() => alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', sample: 3 }))).toBe('invalid');
    expect(codeOf(() => alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'nobody' }))).toBe('not_found');
    const json = reportJson(alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', bootstrap: 0 })) as {
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
    expect(codeOf(() => alignmentReport(annotator, studyId, 'rubric-alignment', { judge: 'gpt' }))).toMatch(/forbidden|not_found/);
    // The pairwise report is refused on a rubric study, as before the two were one core.
    expect(codeOf(() => alignmentReport(lead, studyId, 'alignment', { judge: 'gpt' }))).toBe('invalid');
  });
});

describe('the rubric reports as CSV', () => {
  const csv = (lines: string[]) => parseCsv(lines.join(''));
  it('alignment: a row per scope and scoring, the confusion cells in label order, class-wise rows', () => {
    const r = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', bootstrap: 0 });
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
});

describe('the rubric alignment report as the API, the CLI and the downloads give it', () => {
  // Held to the output of the rubric use-case before it was folded with the pairwise one into one core: the JSON
  // (with bootstrap intervals) and every CSV table of both samples, byte for byte.
  it('gives the same JSON and CSV tables as before the fold', async () => {
    const out = [1, 2].map((sample) => {
      const r = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'gpt', sample, bootstrap: 200 });
      const tables = Object.fromEntries(REPORT_TABLES['rubric-alignment'].map((t) => [t, reportCsv('rubric-alignment', t, r).join('')]));
      return { json: reportJson(r), tables };
    });
    await expect(`${JSON.stringify(out, null, 1)}\n`).toMatchFileSnapshot('./__snapshots__/alignment-rubric.json');
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
