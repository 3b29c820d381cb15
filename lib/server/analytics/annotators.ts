import 'server-only';
import { getDb } from '@/db/client';
import { displayOrderText } from '@/db/queries/certify';
import { itemIdsInOrder } from '@/db/queries/ground-truth';
import { annotatorPacks } from '@/db/queries/packs-annotators';
import { exclusions } from '@/db/queries/packs-exclusions';
import { studyKind } from '@/lib/kinds/registry';
import { type Maybe, type ShownVerdict, annotatorQuality, humanPositionBias, straightLining } from '@/lib/stats';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { fitDawidSkene, fitMace } from '../ground-truth/model-gold';
import { decide, NO_RULING, outcomeLabel } from '../ground-truth/rule';
import { studyForStaff } from '../review/access';
import { goldAccuracyOf } from '../review/gold';
import { ANNOTATOR_UNITS } from './annotators-data';
import { excludedLabels } from './annotators-exclusions';
import { firstPreferenceDto } from './bias';
import type { AnnotatorDto, AnnotatorUnitDto, AnnotatorsReportDto, IntervalDto, RateDto, StatDto } from './dto';

/*
 * The annotator quality report (issue 27): per annotator and unit (criterion, dimension), their items, accuracy and
 * Cohen's κ against the ground truth left without their own vote, agreement with the plurality of the others,
 * Dawid–Skene and MACE competence, straight-lining and (pairwise) position bias; per annotator their active time
 * against the study's median. The statistics are lib/stats' (STATS-3). Excluded annotators (decision 0029) are
 * listed with their own figures but take no part in the ground truth, the others' plurality or the EM models.
 */

/** Disagreements listed per row for the drill-down; the total is always given. */
const DRILL_DOWN = 100;

const stat = (m: Maybe<number>): StatDto => (m.value === null ? { value: null, reason: m.reason } : { value: m.value });
const wilson = (m: Maybe<[number, number]>): IntervalDto =>
  m.value === null
    ? { method: 'wilson', lower: null, upper: null, reason: m.reason }
    : { method: 'wilson', lower: m.value[0], upper: m.value[1] };
const rate = (n: number, k: number, r: Maybe<number>, w: Maybe<[number, number]>): RateDto => ({
  n,
  k,
  rate: stat(r),
  interval: wilson(w),
});

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** The order each counting review was shown in, by `itemId,slot`: true = reply b shown first. */
function shownOrders(text: string): Map<string, boolean> {
  const map = new Map<string, boolean>();
  if (!text) return map;
  for (const part of text.split('/')) {
    const [item, slot, swapped] = part.split(',');
    map.set(`${item},${slot}`, swapped === '1');
  }
  return map;
}

export function annotatorsReport(actor: Actor, studyId: number): AnnotatorsReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const load = ANNOTATOR_UNITS[study.kind];
  const facet = studyKind(study.kind).labels;
  if (!load || !facet) throw invalid('The annotator report is for studies with labels (pairwise and rubric studies).');
  const data = load(db, study);
  const { items, units, gold, rulings } = data;
  const n = items.n;
  const U = units.length;
  const externalIds = new Map(itemIdsInOrder(db, studyId).map(([id, ext]) => [id, ext]));
  const excludedIds = new Set(exclusions(db, studyId).map((e) => e.userId));
  const shown = data.pairwiseOrder ? shownOrders(displayOrderText(db, studyId)) : new Map<string, boolean>();

  // The annotators (rows come by username) and, per unit, each one's label on each item and their labels in the
  // order they submitted them.
  const people: { userId: number; username: string; excluded: boolean; items: number; activeMs: number[] }[] = [];
  const index = new Map<number, number>();
  const rows = annotatorPacks(db, studyId);
  for (const r of rows) {
    if (index.has(r.userId)) continue;
    index.set(r.userId, people.length);
    people.push({ userId: r.userId, username: r.username, excluded: excludedIds.has(r.userId), items: 0, activeMs: [] });
  }
  const J = people.length;
  const given = Array.from({ length: U }, () => new Int8Array(n * J).fill(-1));
  const sequence = Array.from({ length: U }, () => Array.from({ length: J }, () => [] as number[]));
  const shownBy = Array.from({ length: U }, () => Array.from({ length: J }, () => [] as ShownVerdict[]));
  for (const r of rows) {
    const j = index.get(r.userId)!;
    const i = items.of(r.itemId);
    if (i < 0 || !r.packed) continue;
    const p = people[j];
    p.items++;
    if (r.activeMs > 0) p.activeMs.push(r.activeMs);
    const order = shown.get(`${r.itemId},${r.slot}`);
    for (let c = 0; c < r.packed.length; c++) {
      const v = r.packed.charCodeAt(c) - 48;
      const u = data.unitOf(facet.packedUnit(v));
      if (u < 0) continue;
      const label = facet.packedLabel(v);
      given[u][i * J + j] = label;
      sequence[u][j].push(label);
      if (order !== undefined) shownBy[u][j].push({ item: i, reviewer: j, shownFirst: order ? 'b' : 'a', label });
    }
  }

  const counted = people.map((p, j) => j).filter((j) => !people[j].excluded);
  const studyMedian = median(counted.flatMap((j) => people[j].activeMs));
  const goldOf = new Map(goldAccuracyOf(db, study).reviewers.map((g) => [g.userId, g]));
  const annotators: AnnotatorDto[] = people.map((p) => {
    const m = median(p.activeMs);
    const g = goldOf.get(p.userId);
    return {
      username: p.username,
      userId: p.userId,
      excluded: p.excluded,
      items: p.items,
      medianActiveSeconds: m === null ? null : m / 1000,
      activeRatio: m === null || !studyMedian ? { value: null, reason: 'no_active_time' } : { value: m / studyMedian },
      gold:
        g && g.accuracy !== null
          ? {
              n: g.compared,
              k: g.correct,
              rate: { value: g.accuracy },
              interval: { method: 'wilson', lower: g.intervals.accuracy.lower, upper: g.intervals.accuracy.upper },
            }
          : {
              n: 0,
              k: 0,
              rate: { value: null, reason: 'no_gold_answers' },
              interval: { method: 'wilson', lower: null, upper: null, reason: 'no_gold_answers' },
            },
    };
  });

  const rule = study.groundTruthRule;
  const unitDtos: AnnotatorsReportDto['units'] = [];
  const out: AnnotatorUnitDto[] = [];
  const votes = new Int8Array(Math.max(1, J));
  units.forEach((unit, u) => {
    const K = unit.labels.length;
    const codes = Array.from({ length: K }, (_, k) => k);
    const g = given[u];
    const labelled: number[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < J; j++) {
        if (g[i * J + j] >= 0) {
          labelled.push(i);
          break;
        }
      }
    }

    // The EM models and the others' plurality over the annotators who count.
    const annotations: [number, number, number][] = [];
    const fitItems = new Set<number>();
    for (const i of labelled)
      for (const j of counted) {
        const l = g[i * J + j];
        if (l >= 0) {
          annotations.push([i, j, l]);
          fitItems.add(i);
        }
      }
    const crowd = { labels: codes, annotators: counted, items: [...fitItems], annotations };
    // Cached by their input (decision 0041): a second read of unchanged labels fits nothing.
    const ds = annotations.length ? fitDawidSkene(crowd) : null;
    const mc = annotations.length ? fitMace(crowd) : null;
    unitDtos.push({
      unit: unit.id,
      labels: [...unit.labels],
      dsPriors: ds ? ds.classPriors : null,
      dsConverged: ds ? ds.converged : null,
      maceConverged: mc ? mc.converged : null,
    });
    const ratingsOf = (js: number[]) => labelled.map((i) => js.map((j) => (g[i * J + j] >= 0 ? g[i * J + j] : null)));
    const noRef = labelled.map(() => null);
    const looCounted = annotatorQuality({
      labels: codes,
      annotators: counted,
      ratings: ratingsOf(counted),
      gold: noRef,
      adjudicated: noRef,
    });

    people.forEach((p, j) => {
      const mine = labelled.filter((i) => g[i * J + j] >= 0);
      if (!mine.length) return;
      // The reference: the ground truth the study's rule gives without this annotator's vote (the others' votes and
      // the newest ruling), also where their vote is what holds the item open; an excluded annotator's vote is not in
      // the ground truth, so theirs is the ground truth itself.
      const reference = mine.map((i) => {
        if (p.excluded) return gold[u * n + i] >= 0 ? gold[u * n + i] : null;
        let k = 0;
        for (const o of counted) if (o !== j) votes[k++] = g[i * J + o];
        const ruling = rulings[u * n + i];
        const label = outcomeLabel(decide(votes, 0, k, ruling >= 0 ? ruling : NO_RULING, rule, K));
        return label >= 0 ? label : null;
      });
      const [q] = annotatorQuality({
        labels: codes,
        annotators: [j],
        ratings: mine.map((i) => [g[i * J + j]]),
        gold: reference,
        adjudicated: reference,
      });
      const loo = p.excluded
        ? annotatorQuality({
            labels: codes,
            annotators: [...counted, j],
            ratings: ratingsOf([...counted, j]),
            gold: noRef,
            adjudicated: noRef,
          })[counted.length]
        : looCounted[counted.indexOf(j)];
      const fit = p.excluded ? -1 : counted.indexOf(j);
      const confusion = ds && fit >= 0 ? ds.confusion[fit] : null;
      let dsCompetence: StatDto = { value: null, reason: p.excluded ? 'excluded' : 'no_labels' };
      if (ds && confusion) {
        let mass = 0;
        let sum = 0;
        confusion.forEach((row, k) => {
          if (row.value === null) return;
          mass += ds.classPriors[k];
          sum += ds.classPriors[k] * row.value[k];
        });
        dsCompetence = mass > 0 ? { value: sum / mass } : { value: null, reason: 'no_mass_for_class' };
      }
      const straight = straightLining(sequence[u][j], K);
      const disagreements = mine.flatMap((i, t) =>
        reference[t] !== null && reference[t] !== g[i * J + j]
          ? [
              {
                itemId: items.ids[i],
                item: externalIds.get(items.ids[i]) ?? String(items.ids[i]),
                label: unit.labels[g[i * J + j]],
                reference: unit.labels[reference[t]!],
              },
            ]
          : [],
      );
      out.push({
        unit: unit.id,
        username: p.username,
        userId: p.userId,
        excluded: p.excluded,
        items: mine.length,
        accuracy: rate(q.goldN, q.goldCorrect, q.goldAccuracy, q.goldWilson95),
        kappa: stat(q.kappaVsAdjudicated),
        kappaN: q.kappaN,
        loo: { ...rate(loo.looN, loo.looAgree, loo.looRate, loo.looWilson95), tied: loo.looTied, noOthers: loo.looNoOthers },
        dsConfusion: confusion ? confusion.map((row) => row.value) : null,
        dsCompetence,
        maceCompetence: mc && fit >= 0 ? stat(mc.competence[fit]) : { value: null, reason: p.excluded ? 'excluded' : 'no_labels' },
        mostUsedLabel: straight.mostUsed.value === null ? null : unit.labels[straight.mostUsed.value],
        mostUsedShare: stat(straight.mostUsedShare),
        longestRun: straight.longestRun,
        longestRunLabel: straight.longestRunLabel.value === null ? null : unit.labels[straight.longestRunLabel.value],
        firstShown:
          data.pairwiseOrder && shownBy[u][j].length ? firstPreferenceDto(humanPositionBias(shownBy[u][j]).firstShownPreferred) : null,
        disagreements: disagreements.slice(0, DRILL_DOWN),
        disagreementsTotal: disagreements.length,
      });
    });
  });

  return {
    kind: study.kind,
    rule,
    units: unitDtos,
    medianActiveSeconds: studyMedian === null ? null : studyMedian / 1000,
    annotators,
    rows: out,
    excluded: excludedLabels(db, studyId),
  };
}
