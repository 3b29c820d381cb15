import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { annotatorQuality, dawidSkene, mace, straightLining } from '@/lib/stats';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';
import type { Actor } from '../actor';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { getQueue } from '../review/flow-review';
import { openStudy, setStudyMembers } from '../studies/studies';
import { biasReport } from './bias';
import { annotatorsReport } from './annotators';
import { excludeAnnotator, includeAnnotator } from './annotators-exclusions';
import { computeReport } from './report';

/*
 * The annotator quality report on a real database: five reviewers label twelve items on `overall` under the
 * majority rule. g1 gives the true label, g2 and g3 miss one item each, straight (a straight-liner) says win every time,
 * and contra (a contrarian) says the opposite of the truth (win ↔ lose, tie → win).
 */
const TRUTH = 'WLTWLTWWLLTW';
const L = { W: 'win', L: 'lose', T: 'tie' } as const;
const CODE = { L: 0, T: 1, W: 2 } as const;
const flip = (t: string) => (t === 'W' ? 'L' : 'W');
const GIVEN: Record<string, string> = {
  contra: [...TRUTH].map(flip).join(''),
  g1: TRUTH,
  g2: TRUTH.slice(0, 2) + 'W' + TRUTH.slice(3),
  g3: TRUTH.slice(0, 6) + 'L' + TRUTH.slice(7),
  straight: 'W'.repeat(12),
};
const PEOPLE = Object.keys(GIVEN).sort();
const ITEMS = [...TRUTH].map((_, k) => `x${String(k + 1).padStart(2, '0')}`);

const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studyId = buildStudy(lead, dir, {
    name: 'Annotators',
    reviewersPerItem: 5,
    groundTruthRule: 'majority',
    catalog: [],
    items: ITEMS.map((id) => ({ id, model: 'm1' })),
    annotations: ITEMS.flatMap((item, k) =>
      PEOPLE.map((annotator) => ({ item, annotator, labels: { overall: L[GIVEN[annotator][k] as keyof typeof L] } })),
    ),
    judges: [],
  });
  // Active time as the review screen records it: g1 takes twice as long per item as everyone else (10 s).
  getDb()
    .$client.prepare(
      "UPDATE assignments SET active_ms = CASE WHEN user_id = (SELECT id FROM users WHERE username = 'g1') THEN 20000 ELSE 10000 END WHERE study_id = ?",
    )
    .run(studyId);
});

const row = (r: ReturnType<typeof annotatorsReport>, who: string) => r.rows.find((x) => x.username === who)!;
const codes = (who: string) => [...GIVEN[who]].map((t) => CODE[t as keyof typeof CODE]);

describe('the annotator quality report', () => {
  it('shows the straight-liner and the contrarian as such', () => {
    const r = annotatorsReport(lead, studyId);
    expect(r.rows.map((x) => x.username)).toEqual(PEOPLE);
    const s = row(r, 'straight');
    expect(s).toMatchObject({ items: 12, mostUsedLabel: 'win', mostUsedShare: { value: 1 }, longestRun: 12, longestRunLabel: 'win' });
    const c = row(r, 'contra');
    // Without contra's vote the other four decide every item but x03 (g2 and straight win, g1 and g3 tie: no
    // majority), and contra never matches.
    expect(c.accuracy).toMatchObject({ n: 11, k: 0, rate: { value: 0 } });
    expect(c.loo.rate.value).toBe(0);
    const good = ['g1', 'g2', 'g3'].map((g) => row(r, g));
    for (const g of good) {
      expect(g.accuracy.rate.value!).toBeGreaterThan(c.accuracy.rate.value!);
      expect(g.maceCompetence.value!).toBeGreaterThan(c.maceCompetence.value!);
      expect(g.maceCompetence.value!).toBeGreaterThan(s.maceCompetence.value!);
      expect(g.dsCompetence.value!).toBeGreaterThan(c.dsCompetence.value!);
      expect(g.mostUsedShare.value!).toBeLessThanOrEqual(0.5);
    }
    expect(c.kappa.value!).toBeLessThan(0);
    expect(c.disagreementsTotal).toBe(11);
    expect(c.disagreements[0]).toMatchObject({ item: 'x01', label: 'lose', reference: 'win' });
    // Imported labels carry no display order.
    expect(s.firstShown).toBeNull();
  });

  it('gives the numbers lib/stats gives when called directly', () => {
    const r = annotatorsReport(lead, studyId);
    const ratings = ITEMS.map((_, i) => PEOPLE.map((p) => codes(p)[i]));
    const none = ITEMS.map(() => null);
    const direct = annotatorQuality({ labels: [0, 1, 2], annotators: PEOPLE, ratings, gold: none, adjudicated: none });
    const crowd = {
      labels: [0, 1, 2],
      annotators: PEOPLE.map((_, j) => j),
      items: ITEMS.map((_, i) => i),
      annotations: ITEMS.flatMap((_, i) => PEOPLE.map((p, j) => [i, j, codes(p)[i]] as [number, number, number])),
    };
    const ds = dawidSkene(crowd);
    const mc = mace(crowd);
    PEOPLE.forEach((p, j) => {
      const x = row(r, p);
      expect(x.loo).toMatchObject({ n: direct[j].looN, k: direct[j].looAgree, tied: direct[j].looTied, rate: direct[j].looRate });
      expect([x.loo.interval.lower, x.loo.interval.upper]).toEqual(direct[j].looWilson95.value);
      expect(x.maceCompetence).toEqual(mc.competence[j]);
      expect(x.dsConfusion).toEqual(ds.confusion[j].map((m) => m.value));
      const sl = straightLining(codes(p), 3);
      expect([x.mostUsedShare.value, x.longestRun]).toEqual([sl.mostUsedShare.value, sl.longestRun]);
    });
    expect(r.units[0].dsPriors).toEqual(ds.classPriors);
    // The reference of g1 is the majority of the four others: where straight and contra both say win against a
    // true lose or tie, the others split 2 : 2 and the item has no reference. Left: x01 x03 x04 x08 x12 (x07 splits
    // too, g3 and contra saying lose), of which g1 misses x03 (tie; the others say win 3 : 1).
    const refs = ITEMS.map((_, i) => (['x01', 'x04', 'x08', 'x12'].includes(ITEMS[i]) ? 2 : ITEMS[i] === 'x03' ? 2 : null));
    const [g1] = annotatorQuality({
      labels: [0, 1, 2],
      annotators: ['g1'],
      ratings: codes('g1').map((c) => [c]),
      gold: refs,
      adjudicated: refs,
    });
    expect(row(r, 'g1').accuracy).toMatchObject({ n: 5, k: 4 });
    expect(row(r, 'g1').accuracy).toMatchObject({ n: g1.goldN, k: g1.goldCorrect, rate: g1.goldAccuracy });
    expect(row(r, 'g1').kappa).toEqual(g1.kappaVsAdjudicated);
  });

  it('sets each annotator’s active time against the study median', () => {
    const r = annotatorsReport(lead, studyId);
    expect(r.medianActiveSeconds).toBe(10);
    const g1 = r.annotators.find((a) => a.username === 'g1')!;
    expect(g1).toMatchObject({ items: 12, medianActiveSeconds: 20, activeRatio: { value: 2 } });
  });

  it('keeps an excluded annotator listed and marked, out of the aggregates', () => {
    excludeAnnotator(lead, studyId, 'contra');
    const r = computeReport(lead, studyId, 'annotators', {});
    const c = row(r, 'contra');
    expect(c.excluded).toBe(true);
    expect(c.maceCompetence).toEqual({ value: null, reason: 'excluded' });
    expect(r.excluded).toMatchObject({ labels: 12, annotators: [{ username: 'contra', labels: 12 }] });
    // The others' figures are those of a fit without contra.
    const others = PEOPLE.filter((p) => p !== 'contra');
    const mc = mace({
      labels: [0, 1, 2],
      annotators: others.map((_, j) => j),
      items: ITEMS.map((_, i) => i),
      annotations: ITEMS.flatMap((_, i) => others.map((p, j) => [i, j, codes(p)[i]] as [number, number, number])),
    });
    others.forEach((p, j) => expect(row(r, p).maceCompetence).toEqual(mc.competence[j]));
    includeAnnotator(lead, studyId, 'contra');
    expect(row(annotatorsReport(lead, studyId), 'contra').excluded).toBe(false);
  });

  it('gives each reviewer’s preference for the reply shown first, from the display order of the review screen', async () => {
    const [first, loyal] = await Promise.all([makeUser('first'), makeUser('loyal')]);
    const items = Array.from({ length: 30 }, (_, k) => ({ id: `p-${k}`, model: 'm' }));
    const id = buildStudy(lead, dir, { name: 'Display order', reviewersPerItem: 2, catalog: [], items, annotations: [], judges: [] });
    setStudyMembers(lead, id, { usernames: ['first', 'loyal'] });
    openStudy(lead, id);
    let n = 0;
    const judgeAll = (who: Actor, choose: (swapped: boolean) => 'r1' | 'r2') => {
      for (let q = getQueue(who, id); q.currentId !== null; q = getQueue(who, id)) {
        const a = getJudgeAssignment(who, q.currentId);
        const swapped = getDb().$client.prepare('SELECT swapped FROM assignments WHERE id = ?').pluck().get(a.assignmentId) === 1;
        const choices = Object.fromEntries(a.criteria.map((c) => [c.id, choose(swapped)]));
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: `annotators-position-${++n}`, activeMs: 500, choices });
      }
    };
    // `first` always picks Response 1; `loyal` always picks reply a, wherever it is shown.
    judgeAll(first, () => 'r1');
    judgeAll(loyal, (swapped) => (swapped ? 'r2' : 'r1'));
    const r = annotatorsReport(lead, id);
    expect(row(r, 'first').firstShown).toMatchObject({ count: 30, decisive: 30, rate: { value: 1 } });
    // The same figures as the bias report's per reviewer.
    const bias = biasReport(lead, id, 'bias');
    for (const who of ['first', 'loyal']) {
      expect(row(r, who).firstShown).toEqual(bias.humanPosition.find((h) => h.reviewer === who)!.firstPreferred);
    }
  });

  it('is for leads and admins', async () => {
    const annotator = await makeUser('someone', 'annotator');
    expect(codeOf(() => annotatorsReport(annotator, studyId))).toBe('forbidden');
  });
});
