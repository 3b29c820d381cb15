import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { clopperPearsonUpper, errorBoundedAcceptance, strataByPredictedLabel } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { openStudy } from '../studies/studies';
import { hybridReport } from './hybrid';
import { openHybridQueue } from './hybrid-queue';
import { computeReport } from './report';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';

/*
 * Error-bounded acceptance beside Padó's plan, on Padó's worked example (the judge's "win" right 266 of 281 times,
 * its "lose" 8 of 19 — the calibration sample, with ground truth) and 100 further items only the judge labelled:
 * 40 "lose", 60 "win". Padó's plan accepts "win" on its 94.7 % class-wise accuracy; whether the guarantee does
 * depends on ε. Every figure is compared with lib/stats called directly on the same counts.
 */
const CALIBRATION: ['win' | 'lose', 'win' | 'lose', number][] = [
  ['win', 'win', 266],
  ['lose', 'win', 15],
  ['lose', 'lose', 8],
  ['win', 'lose', 11],
];
const cases = CALIBRATION.flatMap(([gold, judge, n]) => Array.from({ length: n }, () => ({ gold, judge })));
const unlabelled = [...Array.from({ length: 40 }, () => 'lose' as const), ...Array.from({ length: 60 }, () => 'win' as const)];
const LABELS = ['lose', 'tie', 'win'];

const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  await makeUser('r1');
  studyId = buildStudy(lead, dir, {
    name: 'Acceptance',
    reviewersPerItem: 1,
    catalog: [],
    items: [...cases.map((_, k) => ({ id: `cal-${k}`, model: 'm' })), ...unlabelled.map((_, k) => ({ id: `new-${k}`, model: 'm' }))],
    annotations: cases.map((c, k) => ({ item: `cal-${k}`, annotator: 'expert', labels: { overall: c.gold } })),
    judges: [
      {
        name: 'judge',
        lines: [
          ...cases.map((c, k) => ({ item: `cal-${k}`, labels: { overall: c.judge } })),
          ...unlabelled.map((l, k) => ({ item: `new-${k}`, labels: { overall: l } })),
        ],
      },
    ],
  });
});

/** What lib/stats says on the same data, item by item. */
function direct(epsilon: number, delta: number) {
  const strata = strataByPredictedLabel(
    LABELS,
    cases.map((c) => ({ predicted: c.judge, human: c.gold })),
    [...cases.map((c) => c.judge), ...unlabelled],
  );
  return { strata, result: errorBoundedAcceptance(strata, { epsilon, delta, method: 'holm' }) };
}

describe('error-bounded acceptance beside Padó’s plan', () => {
  it('accepts nothing at ε = δ = 5 %, where Padó accepts "win" with a 5.3 % observed error', () => {
    const { acceptance: a } = hybridReport(lead, studyId, { judge: 'judge' });
    const { strata, result } = direct(0.05, 0.05);
    expect(a).toMatchObject({ epsilon: 0.05, delta: 0.05, method: 'holm', pool: 400, calibration: 300, acceptedLabels: [] });
    expect(a.strata.map((s) => [s.label, s.n, s.errors, s.pool, s.accepted])).toEqual(
      strata.map((s, j) => [s.name, s.n, s.errors, s.pool, result.perStratum[j].accepted]),
    );
    expect(a.strata.map((s) => s.pValue)).toEqual(result.perStratum.map((s) => s.pValue));
    expect(a.strata.map((s) => s.errorUpperSimultaneous.value)).toEqual(result.perStratum.map((s) => s.cpUpperBonferroni.value));
    expect(a.acceptedShare.value).toBe(0);
    expect(a.errorBound).toEqual({ value: null, reason: 'nothing_accepted' });
    expect(a.humanLabels).toBe(result.humanLabels);
    expect(a.effortSaved.value).toBe(result.effortSaved.value);
    // Padó's plan on the same data: "win" is 341 of the 400 judged items, wrong in 15 of its 281 calibration items,
    // and the data cannot vouch for less than its Clopper–Pearson bound at 95 %.
    expect(a.pado).toMatchObject({ acceptedClass: 'win', acceptedItems: 341, guaranteed: false });
    expect(a.pado.acceptedShare.value).toBe(341 / 400);
    expect(a.pado.observedError.value).toBe(15 / 281);
    expect(a.pado.errorUpper.value).toBe(clopperPearsonUpper(15, 281, 0.05));
    expect(a.pado.effortSaved.value).toBe(60 / 400);
  });

  it('accepts "win" at ε = 10 %, with its bound, the work saved and the final error bound of lib/stats', () => {
    const { acceptance: a } = hybridReport(lead, studyId, { judge: 'judge', epsilon: 0.1 });
    const { result } = direct(0.1, 0.05);
    expect(result.accepted).toEqual(['win']);
    expect(a.acceptedLabels).toEqual(['win']);
    expect(a).toMatchObject({ acceptedItems: 341, judgeLabelledItems: 60, humanLabels: 340 });
    expect(a.acceptedShare.value).toBe(341 / 400);
    expect(a.errorBound.value).toBe(0.1);
    expect(a.errorUpperAccepted.value).toBe(result.perStratum[2].cpUpperBonferroni.value);
    expect(a.errorUpperAccepted.value).toBeLessThanOrEqual(0.1);
    expect(a.coverage.value).toBe(result.coverage.value);
    expect(a.effortSaved.value).toBe(result.effortSaved.value);
    expect(a.finalErrorRateBound.value).toBe(result.finalErrorRateBound.value);
    expect(a.pado.guaranteed).toBe(true);
  });

  it('reads ε and δ through the registry, and refuses values outside (0, 1)', () => {
    const r = computeReport(lead, studyId, 'hybrid', { judge: 'judge', epsilon: '0.1', delta: '0.01' });
    expect([r.acceptance.epsilon, r.acceptance.delta]).toEqual([0.1, 0.01]);
    expect(r.acceptance.acceptedLabels).toEqual(direct(0.1, 0.01).result.accepted);
    expect(codeOf(() => hybridReport(lead, studyId, { judge: 'judge', epsilon: 0 }))).toBe('invalid');
    expect(codeOf(() => hybridReport(lead, studyId, { judge: 'judge', delta: '1' }))).toBe('invalid');
  });

  it('opens the review queue for every item outside the accepted classes under the guarantee', () => {
    openStudy(lead, studyId, { leaveUnassigned: true });
    expect(codeOf(() => openHybridQueue(lead, studyId, { judge: 'judge', plan: 'certain', usernames: ['r1'] }))).toBe('invalid');
    // At ε = δ = 5 % nothing is accepted: all 100 unreviewed items go to people, with no random checks.
    const q = openHybridQueue(lead, studyId, { judge: 'judge', plan: 'guaranteed', usernames: ['r1'] });
    expect(q).toMatchObject({ routed: 100, extra: 0, assignments: [{ username: 'r1', items: 100 }] });
    const detail = getDb()
      .$client.prepare(`SELECT detail FROM audit_log WHERE action = 'hybrid_queue_opened' ORDER BY id DESC LIMIT 1`)
      .pluck()
      .get() as string;
    expect(JSON.parse(detail)).toMatchObject({ plan: 'guaranteed', epsilon: 0.05, delta: 0.05, routed: 100 });
  });
});
