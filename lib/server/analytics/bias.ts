import 'server-only';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as cq from '@/db/queries/certify';
import { type FirstPreference, type ShownVerdict, humanPositionBias, judgePositionBias, lengthBias } from '@/lib/stats';
import type { Actor } from '../actor';
import { certInterval, certStat } from './corrected-leaderboard';
import { LABEL_SET, analysableStudy, loadFrame, loadGold, loadJudge } from './data';
import type { BiasReportDto, FirstPreferenceDto, HumanPositionDto, JudgePositionDto, LengthBiasDto } from './dto';
import { GROUND_TRUTH_GRADER } from './leaderboard';

function firstPreferenceDto(f: FirstPreference): FirstPreferenceDto {
  return {
    count: f.count,
    decisive: f.decisive,
    rate: certStat(f.rate),
    pValue: certStat(f.binomPValue),
    interval: certInterval('wilson', f.wilson95),
  };
}

/**
 * Biases of the graders of a pairwise study: each judge run's position bias per criterion where it judged both
 * orders; the reviewers' preference for the reply shown first, from the display order stored with every label
 * given on the review screen, per reviewer and pooled; and the length bias of the ground truth and of every judge
 * run (win shares by quintile of the length difference, logistic slope). Leads and admins only.
 */
export function biasReport(actor: Actor, studyId: number): BiasReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const frame = loadFrame(db, study);
  const { n } = frame;
  const runs = aq.judgeRuns(db, studyId).map((r) => ({ name: r.name, codes: loadJudge(db, frame, r.id) }));

  const judgePosition: JudgePositionDto[] = [];
  for (const run of runs) {
    frame.criteria.forEach((crit, c) => {
      const items = [];
      for (let i = 0; i < n; i++) {
        const a = run.codes.original[c * n + i];
        const b = run.codes.swapped[c * n + i];
        if (a >= 0 || b >= 0) items.push({ aFirst: a >= 0 ? a : null, bFirst: b >= 0 ? b : null });
      }
      if (!items.length) return;
      const r = judgePositionBias(items);
      judgePosition.push({
        judge: run.name,
        criterion: crit.id,
        items: r.items,
        itemsBothOrders: r.itemsBothOrders,
        flips: r.flips,
        reversals: r.reversals,
        flipRate: certStat(r.flipRate),
        reversalRate: certStat(r.reversalRate),
        firstPreferred: firstPreferenceDto(r.firstPreferred),
      });
    });
  }

  const byCriterion = new Map<string, ShownVerdict[]>();
  for (const [itemId, reviewer, swapped, criterion, label] of cq.shownLabels(db, studyId)) {
    if (!frame.criterionIds.includes(criterion)) continue;
    const list = byCriterion.get(criterion) ?? [];
    list.push({ item: itemId, reviewer, shownFirst: swapped ? 'b' : 'a', label: LABEL_SET.indexOf(label) });
    byCriterion.set(criterion, list);
  }
  const humanPosition: HumanPositionDto[] = [];
  for (const id of frame.criterionIds) {
    const records = byCriterion.get(id);
    if (!records) continue;
    const pooled = humanPositionBias(records);
    humanPosition.push({ criterion: id, reviewer: null, verdicts: pooled.verdicts, firstPreferred: firstPreferenceDto(pooled.firstShownPreferred) });
    const reviewers = [...new Set(records.map((r) => String(r.reviewer)))].sort();
    for (const reviewer of reviewers) {
      const own = humanPositionBias(records.filter((r) => r.reviewer === reviewer));
      humanPosition.push({ criterion: id, reviewer, verdicts: own.verdicts, firstPreferred: firstPreferenceDto(own.firstShownPreferred) });
    }
  }

  const lengthDiff = new Float64Array(n).fill(NaN);
  for (const [itemId, a, b] of cq.replyLengths(db, studyId)) {
    const i = frame.items.of(itemId);
    if (i >= 0 && a !== null && b !== null) lengthDiff[i] = a - b;
  }
  const gold = loadGold(db, frame).gold;
  const graders = [{ name: GROUND_TRUTH_GRADER, codes: gold }, ...runs.map((r) => ({ name: r.name, codes: r.codes.verdict }))];
  const length: LengthBiasDto[] = [];
  for (const grader of graders) {
    frame.criteria.forEach((crit, c) => {
      const d: number[] = [];
      const labels: number[] = [];
      for (let i = 0; i < n; i++) {
        const code = grader.codes[c * n + i];
        if (code < 0 || Number.isNaN(lengthDiff[i])) continue;
        d.push(lengthDiff[i]);
        labels.push(code);
      }
      if (!d.length) return;
      const r = lengthBias(d, labels);
      length.push({
        grader: grader.name,
        criterion: crit.id,
        n: r.n,
        nDecisive: r.nDecisive,
        slope: certStat(r.slope),
        slopeSe: certStat(r.slopeSe),
        pValue: certStat(r.pValue),
        intervals: { slope: certInterval('wald', r.slopeCi95) },
        bins:
          r.bins?.map((b) => ({
            bin: b.bin,
            lowerEdge: b.lowerEdge,
            upperEdge: b.upperEdge,
            n: b.n,
            wins: b.wins,
            ties: b.ties,
            losses: b.losses,
            winShare: certStat(b.winShare),
            winShareTiesHalf: certStat(b.winShareTiesHalf),
            winShareExclTies: certStat(b.winShareExclTies),
          })) ?? null,
      });
    });
  }

  return { studyId, judgePosition, humanPosition, ...(humanPosition.length ? {} : { humanPositionReason: 'no_display_order' as const }), length };
}
