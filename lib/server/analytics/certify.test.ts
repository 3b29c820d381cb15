import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { importAnnotations } from '../imports/prior-annotations';
import { getQueue } from '../review/flow-review';
import { openStudy, setStudyMembers } from '../studies/studies';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { GROUND_TRUTH_GRADER, leaderboardReport } from './leaderboard';
import { type StudySpec, buildStudy } from '@/test/analytics-fixtures';

/*
 * Certification statistics on small studies built for the purpose: five models with known rankings, a judge right
 * on 95 % of the items and one right on 60 %, and two reviewers whose display order is stored by the review screen.
 */
const { dir } = useTestDatabase();
let lead: Actor;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});

type L = 'lose' | 'tie' | 'win';

describe('rank agreement', () => {
  it('gives τ-b = 1 for a judge that ranks five models as people do and −1 for one that reverses them', () => {
    // Model m_k wins k of its 4 items in the ground truth (m0 worst, m4 best).
    const models = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const items = models.flatMap((m) => [0, 1, 2, 3].map((k) => ({ id: `${m}-${k}`, model: m })));
    const gt = (id: string): L => (Number(id.split('-')[1]) < Number(id[1]) ? 'win' : 'lose');
    const reversed = (id: string): L => (Number(id.split('-')[1]) < 4 - Number(id[1]) ? 'win' : 'lose');
    const spec: StudySpec = {
      name: 'Five models',
      reviewersPerItem: 1,
      catalog: [],
      items,
      annotations: items.map((it) => ({ item: it.id, annotator: 'r1', labels: { overall: gt(it.id) } })),
      judges: [
        { name: 'same', lines: items.map((it) => ({ item: it.id, labels: { overall: gt(it.id) } })) },
        { name: 'reversed', lines: items.map((it) => ({ item: it.id, labels: { overall: reversed(it.id) } })) },
        // Wrong on the first item of every model: the order is blurred, not reversed.
        {
          name: 'noisy',
          lines: items.map((it) => ({
            item: it.id,
            labels: { overall: it.id.endsWith('-0') ? (gt(it.id) === 'win' ? 'lose' : 'win') : gt(it.id) },
          })),
        },
      ],
    };
    const id = buildStudy(lead, dir, spec);
    const r = leaderboardReport(lead, id, { bootstrap: 0 });
    expect(r.rows.filter((x) => x.grader === GROUND_TRUTH_GRADER).map((x) => x.overallJudgement.value)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    const byGrader = Object.fromEntries(r.rankAgreement.map((a) => [a.grader, a]));
    expect(Object.keys(byGrader).sort()).toEqual(['noisy', 'reversed', 'same']);
    expect(byGrader.same.intervals.tauB).toMatchObject({ method: 'bootstrap', lower: null, reason: 'not_computed' });
    expect(byGrader.same).toMatchObject({
      scope: 'overall',
      models: 5,
      tauB: { value: 1 },
      spearmanRho: { value: 1 },
      concordant: 10,
      discordant: 0,
      kendallMethod: 'exact',
    });
    // The exact two-sided p of a perfect ranking of five models is 2/5! = 1/60.
    expect(byGrader.same.tauBPValue.value).toBeCloseTo(1 / 60, 12);
    expect(byGrader.reversed).toMatchObject({ models: 5, tauB: { value: -1 }, concordant: 0, discordant: 10 });
    expect(byGrader.reversed.spearmanRho.value).toBeCloseTo(-1, 12);

    // With the item bootstrap: a judge that always agrees ranks as people do in every resample; the reversed one's
    // interval stays below zero; a noisy one's interval is wide and holds its estimate.
    const boot = leaderboardReport(lead, id, { bootstrap: 400 });
    const of = (g: string) => boot.rankAgreement.find((a) => a.grader === g && a.scope === 'overall')!;
    expect(of('same').intervals.tauB).toMatchObject({ method: 'bootstrap', lower: 1, upper: 1 });
    expect(of('reversed').intervals.spearmanRho.upper!).toBeLessThan(0);
    expect(of('reversed').intervals.spearmanRho.lower!).toBeGreaterThanOrEqual(-1);
    const noisy = of('noisy');
    expect(noisy.tauB.value).toBeGreaterThan(0);
    expect(noisy.tauB.value).toBeLessThan(1);
    const t = noisy.intervals.tauB;
    expect(t.lower!).toBeLessThan(noisy.tauB.value!);
    expect(t.upper!).toBeGreaterThanOrEqual(noisy.tauB.value!);
    expect(t.lower!).toBeGreaterThanOrEqual(-1);
    expect(t.upper!).toBeLessThanOrEqual(1);
    expect(noisy.intervals.spearmanRho.lower!).toBeLessThan(noisy.spearmanRho.value!);
    // The same seed, the same intervals.
    expect(leaderboardReport(lead, id, { bootstrap: 400 }).rankAgreement).toEqual(boot.rankAgreement);
  });
});

describe('certification while labelling', () => {
  const N = 300;
  let studyId: number;

  beforeAll(() => {
    const items = Array.from({ length: N }, (_, k) => ({ id: `c-${String(k).padStart(3, '0')}`, model: 'm' }));
    const truth = (k: number): L => (k % 3 === 0 ? 'win' : k % 3 === 1 ? 'lose' : 'tie');
    const other = (l: L): L => (l === 'win' ? 'lose' : 'win');
    studyId = buildStudy(lead, dir, {
      name: 'Certify',
      reviewersPerItem: 1,
      catalog: [],
      items,
      annotations: items.map((it, k) => ({ item: it.id, annotator: 'r1', labels: { overall: truth(k) } })),
      judges: [
        // Wrong on every 20th item: right 95 % of the time.
        { name: 'good', lines: items.map((it, k) => ({ item: it.id, labels: { overall: k % 20 === 7 ? other(truth(k)) : truth(k) } })) },
        // Wrong on 2 of every 5 items: right 60 % of the time.
        { name: 'poor', lines: items.map((it, k) => ({ item: it.id, labels: { overall: k % 5 < 2 ? other(truth(k)) : truth(k) } })) },
      ],
    });
  });

  it('certifies the judge right 95 % of the time and refutes the one right 60 % of the time at a target of 0.8', () => {
    const good = certifyReport(lead, studyId, { judge: 'good', target: 0.8 });
    expect(good).toMatchObject({ n: N, agree: 285, decision: 'certified', itemsNeeded: { value: 0 }, drift: false });
    expect(good.bounds.lower!).toBeGreaterThanOrEqual(0.8);
    const poor = certifyReport(lead, studyId, { judge: 'poor', target: 0.8 });
    expect(poor).toMatchObject({ n: N, agree: 180, decision: 'refuted' });
    expect(poor.bounds.upper!).toBeLessThan(0.8);
    // Both are undecided early on: the first 7 steps of the sequence are always [0, 1].
    expect(good.path[6]).toMatchObject({ t: 7, lower: 0, upper: 1 });
  });

  it('keeps labelling when the target is within the bounds, with a projection of the items still needed', () => {
    const r = certifyReport(lead, studyId, { judge: 'good', target: 0.93 });
    expect(r.decision).toBe('keep_labelling');
    expect(r.itemsNeeded.value!).toBeGreaterThan(0);
  });

  it('takes the items in the order their ground truth was settled, not in the order of the study', async () => {
    // The same items and judges, but the reviews arrive in three batches: the last hundred items first.
    const items = Array.from({ length: N }, (_, k) => ({ id: `s-${String(k).padStart(3, '0')}`, model: 'm' }));
    const id = buildStudy(lead, dir, {
      name: 'Settle order',
      reviewersPerItem: 1,
      catalog: [],
      items,
      annotations: [],
      judges: [{ name: 'poor', lines: items.map((it, k) => ({ item: it.id, labels: { overall: k % 5 < 2 ? 'lose' : 'win' } })) }],
    });
    for (const [from, to] of [
      [200, 300],
      [100, 200],
      [0, 100],
    ]) {
      const lines = items.slice(from, to).map((it) => JSON.stringify({ item: it.id, annotator: 'r1', labels: { overall: 'win' } }));
      importAnnotations(lead, id, writeTemp(dir, `settle-${from}.jsonl`, `${lines.join('\n')}\n`));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const r = certifyReport(lead, id, { judge: 'poor', target: 0.8 });
    expect([r.path[0].item, r.path[99].item, r.path[100].item, r.path[200].item, r.path[299].item]).toEqual([
      's-200',
      's-299',
      's-100',
      's-000',
      's-099',
    ]);
    expect(r.path[99].settledAt < r.path[100].settledAt).toBe(true);
    // s-200 (200 % 5 = 0) is wrong, s-203 (3) right.
    expect([r.path[0].agree, r.path[3].agree]).toEqual([0, 1]);
  });
});

describe('human position bias from the stored display order', () => {
  it('finds a reviewer who always picks Response 1, and one who always picks reply a whatever its place', async () => {
    const [first, loyal] = await Promise.all([makeUser('first'), makeUser('loyal')]);
    const items = Array.from({ length: 40 }, (_, k) => ({ id: `p-${k}`, model: 'm' }));
    const id = buildStudy(lead, dir, { name: 'Display order', reviewersPerItem: 2, catalog: [], items, annotations: [], judges: [] });
    setStudyMembers(lead, id, { usernames: ['first', 'loyal'] });
    openStudy(lead, id);
    let n = 0;
    const judgeAll = (who: Actor, choose: (swapped: boolean) => 'r1' | 'r2') => {
      for (let q = getQueue(who, id); q.currentId !== null; q = getQueue(who, id)) {
        const a = getJudgeAssignment(who, q.currentId);
        const swapped = getDb().$client.prepare('SELECT swapped FROM assignments WHERE id = ?').pluck().get(a.assignmentId) === 1;
        const choices = Object.fromEntries(a.criteria.map((c) => [c.id, choose(swapped)]));
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: `position-request-${++n}`, activeMs: 500, choices });
      }
    };
    judgeAll(first, () => 'r1');
    judgeAll(loyal, (swapped) => (swapped ? 'r2' : 'r1'));
    const loyalShownFirst = getDb()
      .$client.prepare('SELECT count(*) FROM assignments WHERE study_id = ? AND user_id = ? AND swapped = 0')
      .pluck()
      .get(id, loyal.id) as number;
    // The display order is randomised: both orders occur.
    expect(loyalShownFirst).toBeGreaterThan(5);
    expect(loyalShownFirst).toBeLessThan(35);

    const r = biasReport(lead, id, 'bias');
    expect(r.humanPositionReason).toBeUndefined();
    const of = (reviewer: string | null) => r.humanPosition.find((h) => h.reviewer === reviewer)!.firstPreferred;
    expect(of('first')).toMatchObject({ count: 40, decisive: 40, rate: { value: 1 } });
    expect(of('first').interval.upper).toBe(1);
    expect(of('first').pValue.value!).toBeLessThan(1e-10);
    expect(of('loyal')).toMatchObject({ count: loyalShownFirst, decisive: 40 });
    expect(of(null)).toMatchObject({ count: 40 + loyalShownFirst, decisive: 80 });
  });

  it('leaves out labels imported from elsewhere, which have no display order', () => {
    const items = Array.from({ length: 20 }, (_, k) => ({ id: `q-${k}`, model: 'm' }));
    const id = buildStudy(lead, dir, {
      name: 'Imported only',
      reviewersPerItem: 1,
      catalog: [],
      items,
      annotations: items.map((it) => ({ item: it.id, annotator: 'prior', labels: { overall: 'win' } })),
      judges: [],
    });
    const r = biasReport(lead, id, 'bias');
    expect(r).toMatchObject({ humanPosition: [], humanPositionReason: 'no_display_order' });
    // The imported labels still count as ground truth for the length bias.
    expect(r.length.find((l) => l.grader === GROUND_TRUTH_GRADER)).toMatchObject({ criterion: 'overall', n: 20 });
    // The reply lengths were stored with the items: "Reply of m to q-k" against "Reference reply to q-k".
    const lengths = getDb()
      .$client.prepare(
        'SELECT i.external_id, l.length_a, l.length_b FROM item_reply_lengths l JOIN items i ON i.id = l.item_id WHERE l.study_id = ?',
      )
      .raw()
      .all(id) as [string, number, number][];
    expect(lengths).toHaveLength(20);
    for (const [item, a, b] of lengths) expect([a, b]).toEqual([`Reply of m to ${item}`.length, `Reference reply to ${item}`.length]);
  });
});
