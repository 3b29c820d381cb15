import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { buildStudy, labels } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { annotatorsReport } from '../analytics/annotators';
import { excludeAnnotator, includeAnnotator } from '../analytics/annotators-exclusions';
import { importAnnotations } from '../imports/prior-annotations';
import { getAdjudicationItem, submitAdjudication } from '../review/adjudication';
import { openStudy, setGroundTruthRule, setStudyMembers } from '../studies/studies';
import { exportGroundTruth, groundTruthCodes } from './ground-truth';
import { fitDawidSkene, modelFitCount } from './model-gold';

/*
 * Dawid–Skene and MACE are fitted once per distinct input (decision 0041), not at every read: a second read of
 * the same labels reuses the fit, and whatever changes what the model is fitted on — a new label, an exclusion —
 * fits again. Four reviewers on twelve items, two criteria.
 */
const { dir } = useTestDatabase();
let lead: Actor;
let adj: Actor;
let studyId: number;
const C = ['overall', 'clarity'];
const LETTERS = ['WW', 'WL', 'LT', 'TT'];

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  adj = await makeUser('adj');
  const items = Array.from({ length: 12 }, (_, i) => ({ id: `x${i}`, model: 'm1' }));
  studyId = buildStudy(lead, dir, {
    name: 'Model cache',
    reviewersPerItem: 3,
    catalog: [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }],
    items,
    // Reviewer k answers item i with LETTERS[(i + k·(i % 3)) % 4]: some agreement, some disagreement.
    annotations: items.flatMap((it, i) =>
      [0, 1, 2].map((k) => ({ item: it.id, annotator: `r${k + 1}`, labels: labels(C, LETTERS[(i + k * (i % 3)) % 4]) })),
    ),
    judges: [],
  });
});

const study = () => findStudy(getDb(), studyId)!;
const rows = () =>
  [...exportGroundTruth(lead, studyId, 'jsonl').lines].map(
    (l) => JSON.parse(l) as { item: string; criterion: string; label: string; provenance: string; posterior: number | null },
  );
const codes = () => Array.from(groundTruthCodes(getDb(), study(), C).gold);
/** The fits a call ran (the rest came from the cache). */
function fitsOf<T>(read: () => T): [T, number] {
  const before = modelFitCount();
  const out = read();
  return [out, modelFitCount() - before];
}

describe('the label models are cached by what they are fitted on', () => {
  it('fits each criterion once, reuses the fit on the next read, and fits again after a new label or an exclusion', () => {
    setGroundTruthRule(lead, studyId, 'dawid_skene');
    const [first, fitted] = fitsOf(codes);
    expect(fitted).toBe(2);
    const [again, refitted] = fitsOf(codes);
    expect(refitted).toBe(0);
    expect(again).toEqual(first);

    // A new label on one item changes what is fitted: both criteria are fitted again (the input of each changed).
    importAnnotations(
      lead,
      studyId,
      writeTemp(dir, 'late.jsonl', JSON.stringify({ item: 'x0', annotator: 'r4', labels: labels(C, 'LL') })),
    );
    expect(fitsOf(codes)[1]).toBe(2);
    expect(fitsOf(codes)[1]).toBe(0);

    // An exclusion takes r4's labels out again: the same input as the first read, so its fits are reused.
    excludeAnnotator(lead, studyId, 'r4');
    const [without, excludedFits] = fitsOf(codes);
    expect(excludedFits).toBe(0);
    expect(without).toEqual(first);
    excludeAnnotator(lead, studyId, 'r1');
    expect(fitsOf(codes)[1]).toBe(2);
    includeAnnotator(lead, studyId, 'r1');
    includeAnnotator(lead, studyId, 'r4');

    // The annotator report fits both models on each criterion once, and reuses them on the next read.
    expect(fitsOf(() => annotatorsReport(lead, studyId))[1]).toBe(4);
    const [report, reportFits] = fitsOf(() => annotatorsReport(lead, studyId));
    expect(reportFits).toBe(0);
    expect(report.rows.filter((r) => r.dsCompetence.value !== null)).toHaveLength(2 * 4);

    // Another rule is another model: MACE is fitted once, then reused.
    setGroundTruthRule(lead, studyId, 'mace');
    expect(fitsOf(codes)[1]).toBe(2);
    expect(fitsOf(codes)[1]).toBe(0);
  });

  it('answers the same fit object for the same input', () => {
    const data = {
      labels: [0, 1, 2],
      annotators: [1, 2],
      items: [7, 8],
      annotations: [
        [7, 1, 0],
        [7, 2, 0],
        [8, 1, 2],
        [8, 2, 1],
      ] as const,
    };
    const [a, fitted] = fitsOf(() => fitDawidSkene({ ...data, annotations: data.annotations.map((x) => [...x] as const) }));
    const [b, refitted] = fitsOf(() => fitDawidSkene({ ...data, annotations: data.annotations.map((x) => [...x] as const) }));
    expect([fitted, refitted]).toEqual([1, 0]);
    expect(b).toBe(a);
    // One label changed is another input.
    const [c, changed] = fitsOf(() =>
      fitDawidSkene({
        ...data,
        annotations: [
          [7, 1, 0],
          [7, 2, 0],
          [8, 1, 2],
          [8, 2, 2],
        ],
      }),
    );
    expect(changed).toBe(1);
    expect(c).not.toBe(a);
  });

  it('a ruling made after a fit still settles its item (it is applied after the model, which it does not change)', () => {
    setGroundTruthRule(lead, studyId, 'adjudicated');
    setStudyMembers(lead, studyId, { usernames: [], adjudicator: 'adj' });
    openStudy(lead, studyId);
    const x1 = () => rows().find((r) => r.item === 'x1' && r.criterion === 'overall')!;
    setGroundTruthRule(lead, studyId, 'dawid_skene');
    expect(x1().provenance).toBe('dawid_skene');
    // x1 is disputed (W, L, T on overall); the adjudicator rules on it.
    setGroundTruthRule(lead, studyId, 'adjudicated');
    const itemId = getDb().$client.prepare("SELECT id FROM items WHERE study_id = ? AND external_id = 'x1'").pluck().get(studyId) as number;
    const choices = Object.fromEntries(
      getAdjudicationItem(adj, studyId, itemId)
        .criteria.filter((c) => !c.agreed)
        .map((c) => [c.id, 'tie']),
    );
    submitAdjudication(adj, { studyId, itemId, requestId: 'cache-ruling', choices });
    setGroundTruthRule(lead, studyId, 'dawid_skene');
    const [row, fitted] = fitsOf(x1);
    expect(fitted).toBe(0);
    expect(row).toMatchObject({ label: 'tie', provenance: 'adjudicated', posterior: null });
  });
});
