import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase } from '@/test/db';
import { startStandIn, type StandIn } from '@/test/judge-standin';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import { compareRubricJudgeRuns } from './compare';
import { createJudgeEndpoint } from './endpoints';
import { judgeRunStatus, launchJudgeRun } from './judges';
import { runJudge } from './runner';

useTestDatabase();

const CATALOG: RubricCatalog = [
  { id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
  { id: 'leak', name: 'Keeps the answer back', labels: ['REJECT', 'OK'], desired: 'OK' },
];
// Ground truth of twelve replies (both reviewers agree), cycling through the labels.
const MI = ['No', 'To some extent', 'Yes'];
const LEAK = ['REJECT', 'OK'];
const ITEMS = Array.from({ length: 12 }, (_, i) => ({ id: `i${i}`, mi: MI[i % 3], leak: LEAK[Math.floor(i / 3) % 2] }));

let lead: Actor, annotator: Actor;
let studyId: number;
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
  createJudgeEndpoint(await makeUser('admin', 'admin'), {
    name: 'stand-in',
    baseUrl: standIn.url,
    models: ['stand-in'],
    priceIn: 1,
    priceOut: 2,
  });
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann');
  studyId = buildRubricStudy(lead, {
    name: 'Compare rubric runs',
    catalog: CATALOG,
    reviewersPerItem: 2,
    items: ITEMS.map((it, i) => ({ id: it.id, source: i % 2 ? 't1' : 't2' })),
    annotations: ITEMS.flatMap((it) =>
      ['alice', 'bob'].map((annotator) => ({ item: it.id, annotator, labels: { mi: it.mi, leak: it.leak } })),
    ),
    judges: [
      // agrees with ground truth everywhere
      { name: 'perfect', lines: ITEMS.map((it) => ({ item: it.id, labels: { mi: it.mi, leak: it.leak } })) },
      // 'Yes' and 'OK' always: right strictly a third of the time on mi, but leniently whenever the truth is not 'No'
      { name: 'always-yes', lines: ITEMS.map((it) => ({ item: it.id, labels: { mi: 'Yes', leak: 'OK' } })) },
    ],
  });
});
afterAll(() => standIn.close());

describe('comparing the judge runs of a rubric study', () => {
  it('sets runs side by side with the rubric alignment report’s macro-F1 and κ, strict and lenient, per dimension', () => {
    const c = compareRubricJudgeRuns(lead, studyId, ['perfect', 'always-yes']);
    expect(c.sample).toBe(1);
    expect(c.dimensions).toEqual([
      { id: 'mi', name: 'Notices the mistake', lenient: true },
      { id: 'leak', name: 'Keeps the answer back', lenient: false },
    ]);
    expect(c.runs.map((r) => [r.name, r.origin, r.groundTruthLabels])).toEqual([
      ['perfect', 'imported', 24],
      ['always-yes', 'imported', 24],
    ]);
    const [perfect, yes] = c.runs;
    expect(perfect.byDimension.mi).toMatchObject({ n: 12, alignment: 1, macroF1: 1, macroF1Lenient: 1, kappa: 1, kappaLenient: 1 });
    expect(perfect.byDimension.leak).toMatchObject({ macroF1: 1, macroF1Lenient: null, kappa: 1, kappaLenient: null });
    // A judge that always says the same label has no agreement beyond chance.
    expect(yes.byDimension.mi.kappa).toBe(0);
    expect(yes.byDimension.mi.alignment).toBeCloseTo(1 / 3, 10);
    expect(yes.byDimension.mi.macroF1Lenient!).toBeGreaterThan(yes.byDimension.mi.macroF1!);
    // Every number is the alignment report's, not a second computation of it.
    for (const run of c.runs) {
      const report = alignmentReport(lead, studyId, 'rubric-alignment', { judge: run.name, bootstrap: 0 });
      expect(run.macroF1).toBe(report.overall.macroF1.value);
      for (const d of report.byCriterion) {
        expect(run.byDimension[d.criterion].macroF1).toBe(d.macroF1.value);
        expect(run.byDimension[d.criterion].kappa).toBe(d.cohenKappa.value);
        expect(run.byDimension[d.criterion].macroF1Lenient).toBe(d.lenient?.macroF1.value ?? null);
        expect(run.byDimension[d.criterion].kappaLenient).toBe(d.lenient?.cohenKappa.value ?? null);
      }
    }
    // imported runs have no tokens or cost
    expect(yes).toMatchObject({ tokensIn: null, tokensOut: null, cost: null, model: null });
  });

  it('shows a run launched here with its model, template, tokens and cost beside imported ones', async () => {
    const template = {
      name: 'leak-word',
      criteria: ['leak'],
      user: 'Reply: {{reply}}\nLabels: {{labels}}',
      answer: { pattern: '(first|second|tie)', map: { first: 'OK', second: 'REJECT', tie: 'OK' } },
    };
    const r = launchJudgeRun(lead, studyId, {
      name: 'launched',
      endpoint: 'stand-in',
      model: 'stand-in',
      template,
    });
    expect((await runJudge(r.runId)).state).toBe('done');
    const status = judgeRunStatus(lead, r.runId);
    const c = compareRubricJudgeRuns(lead, studyId, ['launched', 'perfect']);
    expect(c.runs[0]).toMatchObject({
      name: 'launched',
      origin: 'launched',
      model: 'stand-in',
      template: 'leak-word v1',
      tokensIn: status.tokensIn,
      cost: status.cost,
    });
    expect(status.tokensIn).toBeGreaterThan(0);
    expect(c.runs[0].byDimension.leak.n).toBe(12);
    // it judged leak only: nothing on mi
    expect(c.runs[0].byDimension.mi).toMatchObject({ n: 0, macroF1: null });
  }, 60_000);

  it('refuses an unknown run, more than 8 runs, and anyone but leads and admins', () => {
    expect(codeOf(() => compareRubricJudgeRuns(lead, studyId, ['perfect', 'nope']))).toBe('invalid');
    expect(codeOf(() => compareRubricJudgeRuns(lead, studyId, Array(9).fill('perfect')))).toBe('invalid');
    expect(codeOf(() => compareRubricJudgeRuns(annotator, studyId, ['perfect']))).toBe('forbidden');
  });
});
