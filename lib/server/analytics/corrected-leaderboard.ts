import 'server-only';
import {
  type CertInterval,
  type CertStat,
  type PpiEstimate,
  type PpiMeanResult,
  type TiePolicy,
  ppiMean,
  ppiOutcomes,
  rankCorrelation,
} from '@/lib/stats';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import { type ActiveCell, type ActiveDesign, activeWinRate, latestDesign } from './corrected-leaderboard-active';
import type { Frame } from './data';
import type { CorrectedCellDto, CorrectedRunDto, IntervalDto, RankAgreementDto, Reason, StatDto } from './dto';

/*
 * Two blocks of the leaderboard report that measure a judge against people rather than grade the models:
 * - the judge-corrected win rates (prediction-powered inference, PPI++): the judge's verdict on every item,
 *   corrected by the items that have ground truth;
 * - rank agreement: whether a judge orders the models as the ground truth does (Kendall τ-b, Spearman ρ).
 */

/** A lib/stats certification value as a report value. */
export function certStat(s: CertStat): StatDto {
  return s.value === null ? { value: null, reason: s.reason } : { value: s.value };
}

export function certInterval(method: IntervalDto['method'], i: CertInterval): IntervalDto {
  return i.lower === null ? { method, lower: null, upper: null, reason: i.reason } : { method, lower: i.lower, upper: i.upper };
}

const none = (reason: Reason): StatDto => ({ value: null, reason });
const noInterval = (reason: Reason): IntervalDto => ({ method: 'normal', lower: null, upper: null, reason });

type Grader = { name: string; slices: Int8Array[] };

function estimateDto(e: PpiEstimate): { value: StatDto; interval: IntervalDto } {
  return { value: certStat(e.estimate), interval: certInterval('normal', e.ci) };
}

/** Below this many labelled items a corrected (normal) interval covers less often than it claims (STATS-2 3.7). */
export const FEW_LABELLED = 30;

/**
 * The values of a corrected cell from PPI++ on its items, pairwise or rubric alike, with the caution the screen shows:
 * a zero-width interval (every labelled item and every verdict alike: STATS-2 3.5 asks the UI to flag it), else fewer
 * than FEW_LABELLED labelled items.
 */
export function correctedValues(
  r: PpiMeanResult,
  labelled: number,
): Omit<CorrectedCellDto, 'model' | 'criterion' | 'labelled' | 'unlabelled' | 'labelledUnjudged' | 'estimator'> {
  const human = estimateDto(r.classical);
  const alone = estimateDto(r.judgeOnly);
  const corrected = estimateDto(r.ppiPlusPlus);
  const ci = corrected.interval;
  const caution =
    ci.lower === null
      ? null
      : ci.upper! - ci.lower <= 1e-12
        ? 'zero_width_interval'
        : labelled < FEW_LABELLED
          ? 'few_labelled_items'
          : null;
  return {
    humanOnly: human.value,
    judgeOnly: alone.value,
    corrected: corrected.value,
    lambda: certStat(r.ppiPlusPlus.lambda),
    effectiveLabels: certStat(r.effectiveLabels),
    intervals: { humanOnly: human.interval, judgeOnly: alone.interval, corrected: ci },
    caution,
  };
}

/**
 * A corrected cell's values under an active draw, for every kind: the weighted estimate and its interval in place of
 * PPI++'s, the draw's counts, and no human-only mean, λ or worth (the labelled items over-represent the unsure ones).
 */
export function activeValues(ppi: ReturnType<typeof correctedValues>, a: ActiveCell) {
  const na = none('not_applicable');
  return {
    ...ppi,
    estimator: 'active_ipw' as const,
    active: a.info,
    humanOnly: na,
    corrected: a.estimate,
    lambda: na,
    effectiveLabels: na,
    intervals: { ...ppi.intervals, humanOnly: noInterval('not_applicable'), corrected: a.interval },
    caution:
      a.info.pending > 0
        ? ('labels_pending' as const)
        : a.info.drawnLabelled + a.info.labelledBefore < FEW_LABELLED
          ? ('few_labelled_items' as const)
          : null,
  };
}

/**
 * One model's items (study indices, in order) as a corrected cell reads them, for every kind: the codes of the items
 * with ground truth and a verdict (`y`, `yhat`: they measure the judge's error), the verdicts alone (`yhatU`), the
 * judged items, and the items with ground truth but no verdict (left out: PPI needs the judge on every item it uses).
 */
export function correctedTally(items: Iterable<number>, gold: ArrayLike<number>, verdict: ArrayLike<number>) {
  const y: number[] = [];
  const yhat: number[] = [];
  const yhatU: number[] = [];
  const judged: number[] = [];
  let labelledUnjudged = 0;
  for (const i of items) {
    const g = gold[i];
    const v = verdict[i];
    if (v < 0) {
      if (g >= 0) labelledUnjudged++;
      continue;
    }
    judged.push(i);
    if (g >= 0) {
      y.push(g);
      yhat.push(v);
    } else yhatU.push(v);
  }
  return { y, yhat, yhatU, judged, labelledUnjudged };
}

/**
 * The judge-corrected win rate of reply a per model and criterion for one judge run: PPI++ (Angelopoulos, Duchi &
 * Zrnic 2023) with the ground truth where it exists as the labelled sample, beside the human-only and judge-only
 * estimates. Under the `exclude` tie policy a win rate is W/(W + L), not a per-item mean, and every value is null
 * (`not_a_mean`). Valid when the labelled items are a random sample of the model's items; where the labels of a
 * criterion came from an active draw (`designs`, by criterion id), the corrected value and its interval are the
 * inverse-probability-weighted active estimate instead (`corrected-leaderboard-active.ts`), and the human-only
 * mean, biased towards the items the judge was unsure of, is not given.
 */
export function correctedRun(
  frame: Frame,
  gold: Int8Array[],
  judge: Grader,
  policy: TiePolicy,
  designs: ReadonlyMap<string, ActiveDesign> = new Map(),
): CorrectedRunDto {
  const cells: CorrectedCellDto[] = [];
  const itemsOfModel = frame.models.map(() => [] as number[]);
  for (let i = 0; i < frame.n; i++) itemsOfModel[frame.modelOf[i]].push(i);
  frame.models.forEach((model, m) => {
    frame.criteria.forEach((crit, c) => {
      const { y, yhat, yhatU, judged, labelledUnjudged } = correctedTally(itemsOfModel[m], gold[c], judge.slices[c]);
      if (y.length + yhatU.length + labelledUnjudged === 0) return;
      const base = { model, criterion: crit.id, labelled: y.length, unlabelled: yhatU.length, labelledUnjudged };
      if (policy === 'exclude') {
        const no = none('not_a_mean');
        const ni = noInterval('not_a_mean');
        cells.push({
          ...base,
          estimator: 'ppi++',
          humanOnly: no,
          judgeOnly: no,
          corrected: no,
          lambda: no,
          effectiveLabels: no,
          intervals: { humanOnly: ni, judgeOnly: ni, corrected: ni },
          caution: null,
        });
        return;
      }
      const scoring = { kind: 'pairwise' as const, policy };
      const r = ppiMean(ppiOutcomes(y, scoring), ppiOutcomes(yhat, scoring), ppiOutcomes(yhatU, scoring));
      const ppi = correctedValues(r, y.length);
      const design = designs.get(crit.id);
      if (!design) {
        cells.push({ ...base, estimator: 'ppi++', ...ppi });
        return;
      }
      cells.push({ ...base, ...activeValues(ppi, activeWinRate(judged, gold[c], judge.slices[c], design, policy)) });
    });
  });
  return { judge: judge.name, cells };
}

/** The latest active draw of each judge run on each criterion, keyed by run name then criterion id. */
function activeDesigns(frame: Frame, judges: readonly Grader[]): Map<string, Map<string, ActiveDesign>> {
  const db = getDb();
  const ids = new Map(aq.judgeRuns(db, frame.study.id).map((r) => [r.name, r.id]));
  const out = new Map<string, Map<string, ActiveDesign>>();
  for (const j of judges) {
    const id = ids.get(j.name);
    if (id === undefined) continue;
    const byCriterion = new Map<string, ActiveDesign>();
    for (const crit of frame.criterionIds) {
      const d = latestDesign(db, frame.study.id, frame.items, id, crit);
      if (d) byCriterion.set(crit, d);
    }
    out.set(j.name, byCriterion);
  }
  return out;
}

export function correctedLeaderboard(frame: Frame, gold: Int8Array[], judges: Grader[], policy: TiePolicy): CorrectedRunDto[] {
  const designs = activeDesigns(frame, judges);
  return judges.map((j) => correctedRun(frame, gold, j, policy, designs.get(j.name)));
}

/* ----- rank agreement ----- */

type ScoredRow = { model: string; grader: string; perCriterion: Record<string, StatDto>; overallAcc: StatDto };

/**
 * Kendall τ-b and Spearman ρ between each judge run's scores of the models and the ground truth's, per criterion
 * (the win rate under the report's tie policy) and on Overall Acc, with their item-bootstrap intervals
 * (`intervals`, keyed `grader\0scope`; not computed without bootstrap replicates).
 */
export function rankAgreement(
  rows: readonly ScoredRow[],
  groundTruth: string,
  criteria: readonly string[],
  intervals: ReadonlyMap<string, { tauB: IntervalDto; spearmanRho: IntervalDto }> = new Map(),
): RankAgreementDto[] {
  const graders = [...new Set(rows.map((r) => r.grader))].filter((g) => g !== groundTruth);
  const models = [...new Set(rows.map((r) => r.model))];
  const find = (model: string, grader: string) => rows.find((r) => r.model === model && r.grader === grader);
  const scopes: { scope: string; score: (r: ScoredRow | undefined) => number | null }[] = [
    ...criteria.map((id) => ({ scope: id, score: (r: ScoredRow | undefined) => r?.perCriterion[id]?.value ?? null })),
    { scope: 'overallAcc', score: (r: ScoredRow | undefined) => r?.overallAcc.value ?? null },
  ];
  const out: RankAgreementDto[] = [];
  for (const grader of graders) {
    for (const { scope, score } of scopes) {
      const a: number[] = [];
      const b: number[] = [];
      for (const m of models) {
        const x = score(find(m, groundTruth));
        const y = score(find(m, grader));
        if (x === null || y === null) continue;
        a.push(x);
        b.push(y);
      }
      // A scope no model has a score in (e.g. Overall Acc without general criteria) has nothing to rank.
      if (a.length === 0 && scope === 'overallAcc') continue;
      const r = rankCorrelation(a, b);
      out.push({
        grader,
        scope,
        models: a.length,
        tauB: certStat(r.tauB),
        tauBPValue: certStat(r.tauBPValue),
        kendallMethod: r.kendallPMethod.value,
        spearmanRho: certStat(r.spearmanRho),
        spearmanPValue: certStat(r.spearmanPValue),
        concordant: r.concordant,
        discordant: r.discordant,
        tiedGroundTruth: r.tiedA,
        tiedGrader: r.tiedB,
        tiedBoth: r.tiedBoth,
        intervals: intervals.get(`${grader}\u0000${scope}`) ?? {
          tauB: { method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' },
          spearmanRho: { method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' },
        },
      });
    }
  }
  return out;
}
