import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { publicDataPath } from '@/lib/io/public-data';
import { dawidSkene } from '@/lib/stats/dawid-skene';
import { mace } from '@/lib/stats/mace';
import { LABELS } from '@/lib/validation/labels';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import type { Actor } from '../actor';
import { getAdjudicationItem, submitAdjudication } from '../review/adjudication';
import { importItems } from '../imports/imports';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy, openStudy, setGroundTruthRule, setStudyMembers } from '../studies/studies';
import { exportGroundTruth, groundTruthCodes, summarize } from './ground-truth';
import { annotatorsReport } from '../analytics/annotators';
import { rubricGroundTruthCodes } from './rubric-codes';

/*
 * Dawid–Skene and MACE as ground-truth rules (issue 27, decision 0028), on a real SQLite file: the export under
 * each rule equals lib/stats called directly on the same labels, read from the source file, not from the app.
 */
const { dir } = useTestDatabase();
let lead: Actor;
let adj: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  adj = await makeUser('adj');
});

type Row = {
  item: string;
  criterion?: string;
  dimension?: string;
  label: string;
  provenance: string;
  posterior?: number | null;
  reviewers: (string | null)[];
};
const jsonlRows = (studyId: number) => [...exportGroundTruth(lead, studyId, 'jsonl').lines].map((l) => JSON.parse(l) as Row);

/** PandaLM's 999 items, three annotators each (0 tie, 1 response 1 better, 2 response 2 better), straight from the JSON. */
type Raw = { idx: number } & Record<'annotator1' | 'annotator2' | 'annotator3', number>;
const PANDALM = publicDataPath('pandalm', 'testset-v1.json');
const raw = JSON.parse(fs.readFileSync(PANDALM, 'utf8')) as Raw[];
const ANNOTATORS = ['annotator1', 'annotator2', 'annotator3'] as const;
// As Concord labels from reply a's (response 1's) side, by their code in lose, tie, win.
const CODE = { 0: 1, 1: 2, 2: 0 } as Record<number, number>;
const direct = {
  labels: [0, 1, 2],
  annotators: [...ANNOTATORS],
  items: raw.map((r) => r.idx),
  annotations: raw.flatMap((r) => ANNOTATORS.map((a) => [r.idx, a, CODE[r[a]]] as const)),
};

describe('PandaLM under the Dawid–Skene and MACE rules', () => {
  let studyId: number;
  beforeAll(() => {
    studyId = createStudy(lead, {
      kind: 'pairwise',
      name: 'PandaLM models',
      reviewersPerItem: 3,
      groundTruthRule: 'adjudicated',
      seed: 7,
    }).id;
    importItems(lead, studyId, PANDALM, 'pandalm');
  });

  for (const rule of ['dawid_skene', 'mace'] as const) {
    it(`exports every item with the ${rule} label, provenance and posterior of lib/stats on the same labels`, () => {
      const fit = rule === 'dawid_skene' ? dawidSkene(direct) : mace(direct);
      expect(fit.converged).toBe(true);
      expect(setGroundTruthRule(lead, studyId, rule).groundTruthRule).toBe(rule);
      const rows = jsonlRows(studyId);
      expect(rows).toHaveLength(999);
      rows.forEach((r, k) => {
        expect(r.item).toBe(`pandalm-${raw[k].idx}`);
        expect([r.criterion, r.label, r.provenance]).toEqual(['overall', LABELS[fit.labels[k]], rule]);
        expect(Math.abs(r.posterior! - fit.posteriors[k][fit.labels[k]])).toBeLessThan(1e-12);
      });
      // Items the annotators disagree on are the model's too, not the adjudicator's.
      expect(rows.filter((r) => new Set(r.reviewers).size > 1).length).toBeGreaterThan(100);
      // The CSV carries the same, in a posterior column after the provenance.
      const csv = parseCsv([...exportGroundTruth(lead, studyId, 'csv').lines].join(''));
      expect(csv[0].slice(0, 5)).toEqual(['item', 'criterion', 'label', 'provenance', 'posterior']);
      expect(csv.slice(1).map((c) => [c[0], c[2], c[3], Number(c[4])])).toEqual(
        rows.map((r) => [r.item, r.label, r.provenance, r.posterior]),
      );
      // The dashboards' codes (decideGold) settle on the same labels; the summary counts them.
      const study = findStudy(getDb(), studyId)!;
      const codes = groundTruthCodes(getDb(), study, ['overall']);
      expect(Array.from(codes.gold)).toEqual(fit.labels);
      expect(summarize(getDb(), study)).toMatchObject({ items: 999, complete: 999, labels: 999, adjudicated: 0, rule });
    });
  }

  it("Dawid–Skene competences follow the annotators' agreement with the majority", () => {
    setGroundTruthRule(lead, studyId, 'majority');
    const majority = jsonlRows(studyId);
    expect(majority).toHaveLength(999);
    // Each annotator's share of items on the majority's label, against their Dawid–Skene accuracy Σ_k p_k·π_kk
    // (measured: 0.9611 vs 0.9620, 0.9495 vs 0.9510, 0.9664 vs 0.9670).
    const agreement = ANNOTATORS.map((_, j) => majority.filter((r) => r.reviewers[j] === r.label).length / 999);
    const ds = dawidSkene(direct);
    const accuracy = ds.confusion.map((rows) => rows.reduce((s, row, k) => s + ds.classPriors[k] * row.value![k], 0));
    const order = (v: number[]) => v.map((_, j) => j).sort((a, b) => v[b] - v[a]);
    expect(order(accuracy)).toEqual(order(agreement));
    accuracy.forEach((a, j) => expect(Math.abs(a - agreement[j]), ANNOTATORS[j]).toBeLessThan(0.005));
  });

  it('the annotator quality report gives the three annotators the Dawid–Skene and MACE competences of lib/stats', () => {
    const report = annotatorsReport(lead, studyId);
    const ds = dawidSkene(direct);
    const m = mace(direct);
    const rows = report.rows.filter((r) => r.unit === 'overall');
    expect(rows).toHaveLength(3);
    ANNOTATORS.forEach((a, j) => {
      const row = rows.find((r) => r.username.endsWith(a))!;
      const accuracy = ds.confusion[j].reduce((sum, line, k) => sum + ds.classPriors[k] * line.value![k], 0);
      expect(Math.abs(row.dsCompetence.value! - accuracy), a).toBeLessThan(1e-9);
      expect(Math.abs(row.maceCompetence.value! - m.competence[j].value!), a).toBeLessThan(1e-9);
      expect(row.items).toBe(999);
    });
  });

  it("keeps an adjudicator's ruling over the model's label", async () => {
    setGroundTruthRule(lead, studyId, 'adjudicated');
    setStudyMembers(lead, studyId, { usernames: [], adjudicator: 'adj' });
    openStudy(lead, studyId);
    // An item two annotators call a win and one a loss; the adjudicator sides with the one.
    const k = raw.findIndex((r) => ANNOTATORS.filter((a) => r[a] === 1).length === 2 && ANNOTATORS.some((a) => r[a] === 2));
    const itemId = getDb()
      .$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?')
      .pluck()
      .get(studyId, `pandalm-${raw[k].idx}`) as number;
    const view = getAdjudicationItem(adj, studyId, itemId);
    const overall = view.criteria.find((c) => c.id === 'overall')!;
    const minority = overall.reviewers.find((c) => overall.reviewers.filter((x) => x === c).length === 1)!;
    submitAdjudication(adj, { studyId, itemId, requestId: 'rule-over-model', choices: { overall: minority } });
    setGroundTruthRule(lead, studyId, 'dawid_skene');
    const rows = jsonlRows(studyId);
    expect(dawidSkene(direct).labels[k]).toBe(LABELS.indexOf('win'));
    expect(rows[k]).toMatchObject({ label: 'lose', provenance: 'adjudicated', posterior: null });
    expect(rows.filter((r) => r.provenance === 'dawid_skene')).toHaveLength(998);
  });

  it('refuses an unknown rule, and a rule for a kind without ground truth', async () => {
    expect(codeOf(() => setGroundTruthRule(lead, studyId, 'bayes'))).toBe('invalid');
    const flow = createStudy(lead, { kind: 'flow_review', name: 'Flows' }).id;
    expect(codeOf(() => setGroundTruthRule(lead, flow, 'mace'))).toBe('invalid');
  });
});

describe('a rubric study under the model rules', () => {
  const DIMS = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
  const NAMES = ['No', 'To some extent', 'Yes'];
  const ITEMS = 40;
  const RATERS = ['r1', 'r2', 'r3', 'r4', 'r5'];
  /** Rater j's label code on item i and dimension d: a truth of i % 3, rater j wrong on a pattern of their own. */
  const code = (i: number, d: number, j: number) => ((i * 7 + d * 3 + j * 5) % (j + 3) === 0 ? (i + d + 1) % 3 : (i + d) % 3);
  let studyId: number;
  beforeAll(() => {
    studyId = createStudy(lead, { kind: 'rubric', name: 'Rubric models', dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      id: `q-${i}`,
      history: [
        { role: 'tutor', text: 'What is 3 + 4?' },
        { role: 'student', text: `It is ${i}.` },
      ],
      reply: { source: 'Sonnet', text: `Reply ${i}` },
    }));
    importItems(lead, studyId, writeTemp(dir, 'rubric-items.jsonl', items.map((x) => JSON.stringify(x)).join('\n')), 'concord');
    // Not every rater labels every item: rater j skips the items with i % 5 === j.
    const records = Array.from({ length: ITEMS }, (_, i) =>
      RATERS.flatMap((a, j) =>
        i % 5 === j ? [] : [{ item: `q-${i}`, annotator: a, labels: Object.fromEntries(DIMS.map((d, k) => [d, NAMES[code(i, k, j)]])) }],
      ),
    ).flat();
    importAnnotations(lead, studyId, writeTemp(dir, 'rubric-prior.jsonl', records.map((x) => JSON.stringify(x)).join('\n')), 'concord');
  });

  for (const rule of ['dawid_skene', 'mace'] as const) {
    it(`exports each dimension's ${rule} label and posterior as lib/stats gives them`, () => {
      setGroundTruthRule(lead, studyId, rule);
      const rows = jsonlRows(studyId);
      expect(rows).toHaveLength(ITEMS * DIMS.length);
      const gold = rubricGroundTruthCodes(getDb(), findStudy(getDb(), studyId)!).gold;
      DIMS.forEach((d, k) => {
        const data = {
          labels: [0, 1, 2],
          annotators: RATERS,
          items: Array.from({ length: ITEMS }, (_, i) => i),
          annotations: Array.from({ length: ITEMS }, (_, i) =>
            RATERS.flatMap((a, j) => (i % 5 === j ? [] : [[i, a, code(i, k, j)] as const])),
          ).flat(),
        };
        const fit = rule === 'dawid_skene' ? dawidSkene(data) : mace(data);
        const mine = rows.filter((r) => r.dimension === d);
        expect(mine.map((r) => r.label)).toEqual(fit.labels.map((l) => NAMES[l]));
        mine.forEach((r, i) => {
          expect(r.provenance).toBe(rule);
          expect(Math.abs(r.posterior! - fit.posteriors[i][fit.labels[i]])).toBeLessThan(1e-12);
        });
        expect(Array.from(gold.subarray(k * ITEMS, (k + 1) * ITEMS))).toEqual(fit.labels);
      });
    });
  }
});
