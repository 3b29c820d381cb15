import 'server-only';
import * as z from 'zod';
import { type Db, getDb } from '@/db/client';
import * as cq from '@/db/queries/certify';
import { altTest, certifyMean, currentBounds, prplEbInitial, prplEbStep } from '@/lib/stats';
import { OVERALL } from '@/lib/validation/common';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { certInterval, certStat } from './corrected-leaderboard';
import {
  type Frame,
  type HumanLabels,
  Q,
  analysableStudy,
  judgeNameSchema,
  judgeRunNamed,
  loadFrame,
  loadGold,
  loadHumanLabels,
  loadJudge,
} from './data';
import type { AltTestCriterionDto, CertifyPointDto, CertifyReportDto, IntervalDto } from './dto';

/** Miscoverage of the confidence sequence: the bounds hold at every step at once with 95 % probability. */
export const CERTIFY_ALPHA = 0.05;
/** Most points of the bound's path the report carries; longer paths keep every k-th step and the last. */
export const PATH_POINTS = 1000;
/** The alt-test runs on items with at least this many human reviewers (Calderon et al. recommend three). */
export const ALT_TEST_MIN_REVIEWERS = 3;
/** Annotators with fewer such items are not tested (the authors' default). */
export const ALT_TEST_MIN_ITEMS = 30;

const optionsSchema = z.object({
  judge: judgeNameSchema,
  criterion: z.string().trim().min(1).default(OVERALL),
  target: z.coerce
    .number({ error: 'target must be a number.' })
    .gt(0, { error: 'target must be above 0.' })
    .lt(1, { error: 'target is an alignment rate, below 1.' })
    .default(0.9),
  epsilon: z.coerce
    .number({ error: 'epsilon must be a number.' })
    .min(0, { error: 'epsilon must be at least 0.' })
    .lt(1, { error: 'epsilon must be below 1.' })
    .default(0.2),
});

/**
 * When each (item, criterion) ground-truth label was settled: the ruling's time where an adjudicator decided a
 * disagreement, otherwise the time of the item's last counting review (agreement or majority). Ms since epoch,
 * −1 where there is no ground truth.
 */
function settledTimes(db: Db, frame: Frame, c: number, gold: Int8Array, humans: HumanLabels) {
  const { n } = frame;
  const lastReview = new Float64Array(n).fill(-1);
  for (const [itemId, at] of cq.lastReviewTimes(db, frame.study.id)) {
    const i = frame.items.of(itemId);
    if (i >= 0) lastReview[i] = at;
  }
  const ruling = new Float64Array(n).fill(-1);
  const id = frame.criterionIds[c];
  for (const [itemId, criterion, at] of cq.rulingTimes(db, frame.study.id)) {
    if (criterion !== id) continue;
    const i = frame.items.of(itemId);
    if (i >= 0) ruling[i] = at;
  }
  const unanimous = new Uint8Array(n).fill(1);
  const { items, codes } = humans.byCriterion[c];
  const S = humans.slots;
  for (let r = 0; r < items.length; r++) {
    let first = -1;
    for (let s = 0; s < S; s++) {
      const code = codes[r * S + s];
      if (code < 0) continue;
      if (first < 0) first = code;
      else if (code !== first) unanimous[items[r]] = 0;
    }
  }
  const at = new Float64Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (gold[i] < 0) continue;
    at[i] = !unanimous[i] && ruling[i] >= 0 ? ruling[i] : lastReview[i];
  }
  return at;
}

function altTestCriterion(frame: Frame, c: number, humans: HumanLabels, verdict: Int8Array, epsilon: number): AltTestCriterionDto {
  const { items, codes } = humans.byCriterion[c];
  const S = humans.slots;
  const U = humans.users.length;
  const ratings: (number | null)[][] = [];
  const judge: (number | null)[] = [];
  for (let r = 0; r < items.length; r++) {
    const row: (number | null)[] = new Array(U).fill(null);
    let given = 0;
    for (let s = 0; s < S; s++) {
      const code = codes[r * S + s];
      const user = humans.slotUser[items[r] * S + s];
      if (code < 0 || user < 0) continue;
      row[user] = code;
      given++;
    }
    if (given < ALT_TEST_MIN_REVIEWERS) continue;
    ratings.push(row);
    const v = verdict[items[r]];
    judge.push(v >= 0 ? v : null);
  }
  const r = altTest(ratings, judge, Q, {
    epsilon,
    minAnnotatorsPerItem: ALT_TEST_MIN_REVIEWERS,
    minItemsPerAnnotator: ALT_TEST_MIN_ITEMS,
  });
  const crit = frame.criteria[c];
  return {
    criterion: crit.id,
    name: crit.name,
    itemsWithEnoughReviewers: ratings.length,
    itemsUsed: r.itemsUsed,
    annotatorsTested: r.annotatorsTested,
    winningRate: certStat(r.winningRate),
    advantageProbability: certStat(r.advantageProbability),
    judgeCanReplace: r.passes.value,
    ...(r.passes.value === null ? { judgeCanReplaceReason: r.passes.reason } : {}),
    // Annotators who labelled none of these items are not part of the test.
    annotators: r.perAnnotator
      .filter((a) => a.nItems > 0)
      .map((a) => ({
        annotator: humans.users[a.annotator],
        items: a.nItems,
        tested: a.tested,
        rhoJudge: certStat(a.rhoF),
        rhoHuman: certStat(a.rhoH),
        t: certStat(a.t),
        pValue: certStat(a.pValue),
        pAdjusted: certStat(a.pAdjustedBy),
        judgeWins: a.rejected.value,
      })),
  };
}

/**
 * Certification of a judge run while people label: the PrPl-EB confidence sequence (Waudby-Smith & Ramdas 2024)
 * of its alignment with ground truth on one criterion, items taken in the order their ground truth was settled,
 * and the decision against the target. With it, the alternative annotator test (Calderon et al. 2025) on every
 * criterion, over the items with at least three reviewers. Leads and admins only.
 */
export function certifyReport(
  actor: Actor,
  studyId: number,
  opts: { judge: string; criterion?: string; target?: number | string; epsilon?: number | string },
): CertifyReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const { judge, criterion, target, epsilon } = parseInput(optionsSchema, opts);
  const run = judgeRunNamed(db, studyId, judge);
  const frame = loadFrame(db, study);
  const c = frame.criterionIds.indexOf(criterion);
  if (c < 0)
    throw invalid(`"${criterion}" is not a criterion of this study; use one of: ${frame.criterionIds.join(', ')}.`, {
      criterion: 'Unknown criterion',
    });
  const { n } = frame;
  const goldAll = loadGold(db, frame).gold;
  const verdictAll = loadJudge(db, frame, run.id).verdict;
  const humans = loadHumanLabels(db, frame);
  const gold = goldAll.subarray(c * n, (c + 1) * n);
  const verdict = verdictAll.subarray(c * n, (c + 1) * n);
  const at = settledTimes(db, frame, c, gold, humans);

  const order: number[] = [];
  let unjudged = 0;
  for (let i = 0; i < n; i++) {
    if (gold[i] < 0) continue;
    if (verdict[i] < 0) unjudged++;
    else order.push(i);
  }
  // Settled first comes first; items settled at the same moment (one import) keep the study's item order.
  order.sort((x, y) => at[x] - at[y] || x - y);

  const external = new Map(cq.externalIds(db, studyId));
  const step = Math.max(1, Math.ceil(order.length / PATH_POINTS));
  let state = prplEbInitial({ alpha: CERTIFY_ALPHA });
  let agree = 0;
  const path: CertifyPointDto[] = [];
  order.forEach((i, k) => {
    const x = gold[i] === verdict[i] ? 1 : 0;
    agree += x;
    state = prplEbStep(state, x).state;
    if ((k + 1) % step !== 0 && k !== order.length - 1) return;
    const b = currentBounds(state);
    path.push({
      t: k + 1,
      item: external.get(frame.items.ids[i]) ?? String(frame.items.ids[i]),
      settledAt: new Date(at[i]).toISOString(),
      agree: x as 0 | 1,
      lower: b.lower,
      upper: b.upper,
    });
  });
  const cert = certifyMean(state, target);
  const bounds: IntervalDto =
    order.length === 0
      ? { method: 'confidence_sequence', lower: null, upper: null, reason: 'no_items' }
      : certInterval('confidence_sequence', cert.bounds);

  return {
    studyId,
    judge: run.name,
    criterion,
    groundTruthRule: study.groundTruthRule,
    target,
    alpha: CERTIFY_ALPHA,
    n: order.length,
    agree,
    unjudged,
    alignmentRate: order.length ? { value: agree / order.length } : { value: null, reason: 'no_items' },
    decision: cert.decision.value,
    ...(cert.decision.value === null ? { decisionReason: cert.decision.reason } : {}),
    bounds,
    drift:
      cert.bounds.lower !== null &&
      order.length > 0 &&
      (agree / order.length < cert.bounds.lower || agree / order.length > cert.bounds.upper),
    itemsNeeded: certStat(cert.itemsNeeded),
    pathStep: step,
    path,
    altTest: {
      epsilon,
      q: 0.05,
      minReviewers: ALT_TEST_MIN_REVIEWERS,
      minItemsPerAnnotator: ALT_TEST_MIN_ITEMS,
      criteria: frame.criteria.map((_, k) => altTestCriterion(frame, k, humans, verdictAll.subarray(k * n, (k + 1) * n), epsilon)),
    },
  };
}
