import 'server-only';
import { type Db, getDb } from '@/db/client';
import * as cq from '@/db/queries/certify';
import type { StudyRow } from '@/db/queries/studies';
import { altTest, certifyMean, currentBounds, prplEbInitial, prplEbStep } from '@/lib/stats';
import type { Actor } from '../actor';
import type { ItemIndex } from '../packs/item-index';
import { CERTIFY_BY_KIND, type CertifyKind, type CertifyOptions, type HumanBlock } from './certify-by-kind';
import { certInterval, certStat } from './corrected-leaderboard';
import { type ActiveDesign, activeEstimate } from './corrected-leaderboard-active';
import type {
  ActiveCertificationDto,
  AltTestCriterionDto,
  CertifyPointDto,
  CertifyReportDto,
  IntervalDto,
  RubricCertifyReportDto,
} from './dto';

/** Miscoverage of the confidence sequence: the bounds hold at every step at once with 95 % probability. */
export const CERTIFY_ALPHA = 0.05;
/** Most points of the bound's path the report carries; longer paths keep every k-th step and the last. */
export const PATH_POINTS = 1000;
/** The alt-test runs on items with at least this many human reviewers (Calderon et al. recommend three). */
export const ALT_TEST_MIN_REVIEWERS = 3;
/** The false discovery rate of the Benjamini–Yekutieli correction across annotators. */
export const ALT_TEST_Q = 0.05;
/** Annotators with fewer such items are not tested (the authors' default). */
export const ALT_TEST_MIN_ITEMS = 30;

/**
 * The alternative annotator test (Calderon et al. 2025) on one criterion or dimension, over the items with at least
 * three human labels; `labelCount` is the size of the label set.
 */
export function altTestOn(
  criterion: { id: string; name: string },
  humans: HumanBlock,
  verdict: Int8Array,
  epsilon: number,
  labelCount: number,
): AltTestCriterionDto {
  const { items, codes, slots: S } = humans;
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
  const r = altTest(ratings, judge, labelCount, {
    epsilon,
    q: ALT_TEST_Q,
    minAnnotatorsPerItem: ALT_TEST_MIN_REVIEWERS,
    minItemsPerAnnotator: ALT_TEST_MIN_ITEMS,
  });
  return {
    criterion: criterion.id,
    name: criterion.name,
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

/** What a certification says, whatever the kind of study: the decision, the bounds now and their path. */
export type CertificationDto = Pick<
  CertifyReportDto,
  | 'target'
  | 'alpha'
  | 'n'
  | 'agree'
  | 'unjudged'
  | 'alignmentRate'
  | 'decision'
  | 'decisionReason'
  | 'bounds'
  | 'drift'
  | 'itemsNeeded'
  | 'pathStep'
  | 'path'
>;

/**
 * The PrPl-EB confidence sequence (Waudby-Smith & Ramdas 2024) of a judge's alignment with ground truth on one
 * criterion or dimension (`gold[i]`, `verdict[i]`; −1 where none), items taken in the order their ground truth
 * was settled (`at[i]`), and the decision against the target.
 */
export function certification(
  db: Db,
  studyId: number,
  items: ItemIndex,
  gold: Int8Array,
  verdict: Int8Array,
  at: Float64Array,
  target: number,
): CertificationDto {
  const order: number[] = [];
  let unjudged = 0;
  for (let i = 0; i < items.n; i++) {
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
      item: external.get(items.ids[i]) ?? String(items.ids[i]),
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
  const rate = order.length ? agree / order.length : null;
  return {
    target,
    alpha: CERTIFY_ALPHA,
    n: order.length,
    agree,
    unjudged,
    alignmentRate: rate === null ? { value: null, reason: 'no_items' } : { value: rate },
    decision: cert.decision.value,
    ...(cert.decision.value === null ? { decisionReason: cert.decision.reason } : {}),
    bounds,
    drift: cert.bounds.lower !== null && rate !== null && (rate < cert.bounds.lower || rate > cert.bounds.upper),
    itemsNeeded: certStat(cert.itemsNeeded),
    pathStep: step,
    path,
  };
}

/** What a kind of study hands the core (`certify-by-kind.ts`): everything a certification reads, kind-neutral. */
export type CertifyInput = {
  study: StudyRow;
  /** The fields the kind's report names itself by, after `studyId` and in the JSON's order: the judge, the criterion, … */
  head: { judge: string; criterion: string } & Record<string, unknown>;
  items: ItemIndex;
  /** The certified criterion's ground truth and verdicts (−1 where none), as compared, and when each was settled. */
  gold: Int8Array;
  verdict: Int8Array;
  at: Float64Array;
  target: number;
  epsilon: number;
  /** Every criterion for the alternative annotator test: its reviewers' labels, the verdicts, the label set's size. */
  altTest: { criterion: { id: string; name: string }; humans: HumanBlock; verdict: Int8Array; labels: number }[];
  /**
   * The latest active draw of the run on the criterion, with the judge's uncertainty per item (null: none); absent
   * where the kind has no active labelling, whose report then names no estimator.
   */
  active?: { design: ActiveDesign; uncertainty: ArrayLike<number | null | undefined> } | null;
};

/**
 * Certification of a judge run while people label, for every kind of study: the PrPl-EB confidence sequence
 * (Waudby-Smith & Ramdas 2024) of its alignment with ground truth on one criterion (or dimension), items taken in
 * the order their ground truth was settled, and the decision against the target; under an active draw, the
 * inverse-probability-weighted estimate decides instead (issue 28). With it, the alternative annotator test
 * (Calderon et al. 2025) on every criterion, over the items with at least three reviewers. What differs by kind —
 * the options, the loaders, a rubric study's judge sample and lenient folding — is the kind's part in
 * `certify-by-kind.ts`; `kind` is the registry's (each kind's report name stays). Leads and admins only.
 */
// The pairwise signature last: it is the one `ReturnType<typeof certifyReport>` reads.
export function certifyReport(actor: Actor, studyId: number, opts: CertifyOptions, kind: 'rubric'): RubricCertifyReportDto;
export function certifyReport(actor: Actor, studyId: number, opts: CertifyOptions, kind?: 'pairwise'): CertifyReportDto;
export function certifyReport(actor: Actor, studyId: number, opts: CertifyOptions, kind: CertifyKind = 'pairwise'): CertifyReportDto {
  const db = getDb();
  const input = CERTIFY_BY_KIND[kind](db, actor, studyId, opts);
  const { items, gold, verdict, target } = input;
  const sequence = certification(db, studyId, items, gold, verdict, input.at, target);
  let active: ActiveCertificationDto | undefined;
  if (input.active) {
    const { design, uncertainty: u } = input.active;
    const judged: number[] = [];
    for (let i = 0; i < items.n; i++) if (verdict[i] >= 0) judged.push(i);
    // The prediction of agreement must be fixed before the labels: the judge's own consistency, 1 − u ∈ [½, 1].
    const a = activeEstimate(
      judged,
      judged.map((i) => 1 - (u[i] ?? 0)),
      (i) => (gold[i] >= 0 ? (gold[i] === verdict[i] ? 1 : 0) : null),
      design,
    );
    const { lower, upper } = a.interval;
    active = {
      ...a.info,
      alignmentRate: a.estimate,
      interval: a.interval,
      decision: lower === null ? null : lower >= target ? 'certified' : upper! < target ? 'refuted' : 'keep_labelling',
    };
  }
  return {
    studyId,
    ...input.head,
    groundTruthRule: input.study.groundTruthRule,
    ...sequence,
    // Under an active draw the labelled items over-represent those the judge was unsure of: the sequence's
    // decision would describe them, not the study; the weighted estimate describes every judged item.
    ...(active
      ? {
          decision: active.decision,
          decisionReason: active.decision === null ? (active.interval.reason ?? 'no_items') : undefined,
          estimator: 'active_ipw' as const,
          active,
        }
      : input.active === null
        ? { estimator: 'confidence_sequence' as const }
        : {}),
    altTest: {
      epsilon: input.epsilon,
      q: ALT_TEST_Q,
      minReviewers: ALT_TEST_MIN_REVIEWERS,
      minItemsPerAnnotator: ALT_TEST_MIN_ITEMS,
      criteria: input.altTest.map((c) => altTestOn(c.criterion, c.humans, c.verdict, input.epsilon, c.labels)),
    },
  };
}
