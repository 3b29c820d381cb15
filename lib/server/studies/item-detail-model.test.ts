import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { dawidSkene } from '@/lib/stats/dawid-skene';
import { mace } from '@/lib/stats/mace';
import { LABELS } from '@/lib/validation/labels';
import { buildStudy, labels } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy, setGroundTruthRule } from './studies';
import { itemDetail } from './item-detail';

/*
 * Under a label model (dawid_skene, mace) an item's own page shows the model's label, its provenance and its
 * posterior (decision 0041), for both kinds — the figures of lib/stats called directly on the same labels.
 */
const { dir } = useTestDatabase();
let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});
const idOf = (studyId: number, ext: string) =>
  getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;

describe("a pairwise item's page under a label model", () => {
  const ITEMS = 15;
  const RATERS = ['r1', 'r2', 'r3'];
  // Rater j's label code (lose, tie, win) on item i: a truth of i % 3, each rater wrong on a pattern of their own.
  const code = (i: number, j: number) => ((i * 5 + j * 7) % (j + 3) === 0 ? (i + 1 + j) % 3 : i % 3);
  let studyId: number;
  beforeAll(() => {
    studyId = buildStudy(lead, dir, {
      name: 'Pairwise models',
      reviewersPerItem: 3,
      catalog: [],
      items: Array.from({ length: ITEMS }, (_, i) => ({ id: `p${i}`, model: 'm1' })),
      annotations: Array.from({ length: ITEMS }, (_, i) =>
        RATERS.map((a, j) => ({ item: `p${i}`, annotator: a, labels: labels(['overall'], 'LTW'[code(i, j)]) })),
      ).flat(),
      judges: [],
    });
  });

  for (const rule of ['dawid_skene', 'mace'] as const) {
    it(`shows each item's ${rule} label and posterior`, () => {
      setGroundTruthRule(lead, studyId, rule);
      const data = {
        labels: [0, 1, 2],
        annotators: RATERS,
        items: Array.from({ length: ITEMS }, (_, i) => i),
        annotations: Array.from({ length: ITEMS }, (_, i) => RATERS.map((a, j) => [i, a, code(i, j)] as const)).flat(),
      };
      const fit = rule === 'dawid_skene' ? dawidSkene(data) : mace(data);
      for (let i = 0; i < ITEMS; i++) {
        const detail = itemDetail(lead, studyId, idOf(studyId, `p${i}`));
        if (detail.kind !== 'pairwise') throw new Error('a pairwise item');
        const gt = detail.criteria.find((c) => c.id === 'overall')!.groundTruth!;
        expect([gt.label, gt.provenance]).toEqual([LABELS[fit.labels[i]], rule]);
        expect(Math.abs(gt.posterior! - fit.posteriors[i][fit.labels[i]])).toBeLessThan(1e-12);
      }
    });
  }

  it('shows no posterior under a per-item rule', () => {
    setGroundTruthRule(lead, studyId, 'majority');
    const detail = itemDetail(lead, studyId, idOf(studyId, 'p0'));
    if (detail.kind !== 'pairwise') throw new Error('a pairwise item');
    expect(detail.criteria.find((c) => c.id === 'overall')!.groundTruth).toEqual({ label: 'lose', provenance: 'majority' });
  });
});

describe("a rubric item's page under a label model", () => {
  const DIMS = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
  const NAMES = ['No', 'To some extent', 'Yes'];
  const ITEMS = 20;
  const RATERS = ['q1', 'q2', 'q3', 'q4'];
  const code = (i: number, d: number, j: number) => ((i * 7 + d * 3 + j * 5) % (j + 3) === 0 ? (i + d + 1) % 3 : (i + d) % 3);
  let studyId: number;
  beforeAll(() => {
    studyId = createStudy(lead, { kind: 'rubric', name: 'Rubric models', dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      id: `q-${i}`,
      history: [{ role: 'student', text: `It is ${i}.` }],
      reply: { source: 'Sonnet', text: `Reply ${i}` },
    }));
    importItems(lead, studyId, writeTemp(dir, 'rubric-items.jsonl', items.map((x) => JSON.stringify(x)).join('\n')), 'concord');
    const records = Array.from({ length: ITEMS }, (_, i) =>
      RATERS.map((a, j) => ({ item: `q-${i}`, annotator: a, labels: Object.fromEntries(DIMS.map((d, k) => [d, NAMES[code(i, k, j)]])) })),
    ).flat();
    importAnnotations(lead, studyId, writeTemp(dir, 'rubric-prior.jsonl', records.map((x) => JSON.stringify(x)).join('\n')), 'concord');
  });

  for (const rule of ['dawid_skene', 'mace'] as const) {
    it(`shows each dimension's ${rule} label and posterior`, () => {
      setGroundTruthRule(lead, studyId, rule);
      DIMS.forEach((d, k) => {
        const data = {
          labels: [0, 1, 2],
          annotators: RATERS,
          items: Array.from({ length: ITEMS }, (_, i) => i),
          annotations: Array.from({ length: ITEMS }, (_, i) => RATERS.map((a, j) => [i, a, code(i, k, j)] as const)).flat(),
        };
        const fit = rule === 'dawid_skene' ? dawidSkene(data) : mace(data);
        for (const i of [0, 7, 13, 19]) {
          const detail = itemDetail(lead, studyId, idOf(studyId, `q-${i}`));
          if (detail.kind !== 'rubric') throw new Error('a rubric item');
          const final = detail.rubric.dimensions.find((x) => x.id === d)!.final!;
          expect([final.label, final.provenance]).toEqual([NAMES[fit.labels[i]], rule]);
          expect(Math.abs(final.posterior! - fit.posteriors[i][fit.labels[i]])).toBeLessThan(1e-12);
        }
      });
    });
  }
});
