import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import * as cq from '@/db/queries/certify';
import { OVERALL } from '@/lib/validation/common';
import type { Actor } from '../actor';
import type { ItemIndex } from '../packs/item-index';
import { parseInput } from '../parse';
import type { CertifyInput } from './certify';
import { latestDesign } from './corrected-leaderboard-active';
import {
  type HumanLabels,
  Q,
  analysableStudy,
  judgeNameSchema,
  judgeRunNamed,
  loadFrame,
  loadGold,
  loadHumanLabels,
  loadJudge,
  criterionIndex,
} from './data';
import { uncertaintyOf } from './review-queue-active';
import { rubricUncertainty } from './review-queue-active-by-kind';
import {
  type RubricFrame,
  analysableRubricStudy,
  dimensionIndex,
  lenientSchema,
  loadRubricFrame,
  loadRubricGold,
  loadRubricHumanLabels,
  loadRubricJudge,
  requireLenientMap,
  sampleSchema,
} from './dimension-frame';

/*
 * What the certification core (`certify.ts`) needs from a study, per kind: the study checked for the actor, the
 * options parsed, one criterion's ground truth and verdicts with the times they were settled, every criterion's
 * reviewer labels and verdicts for the alternative annotator test, and the fields the kind's report names itself by.
 * Each part keeps the order of its checks (study, options, judge run, criterion), so the errors are the same.
 */

/* ----- the pieces every kind's part uses ----- */

/** The alignment to certify, strictly between 0 and 1 (0.9 unless asked). */
export const certifyTargetSchema = z.coerce
  .number({ error: 'target must be a number.' })
  .gt(0, { error: 'target must be above 0.' })
  .lt(1, { error: 'target is an alignment rate, below 1.' })
  .default(0.9);

/** The alternative annotator test's margin ε (0.2 unless asked, as for expert annotators). */
export const altTestEpsilonSchema = z.coerce
  .number({ error: 'epsilon must be a number.' })
  .min(0, { error: 'epsilon must be at least 0.' })
  .lt(1, { error: 'epsilon must be below 1.' })
  .default(0.2);

/** The reviewers' labels of one criterion (or dimension) as the agreement code reads them. */
export type HumanBlock = { slots: number; items: Int32Array; codes: Int8Array; slotUser: Int32Array; users: string[] };

export function humanBlock(humans: HumanLabels, c: number, fold?: (code: number) => number): HumanBlock {
  const { items, codes } = humans.byCriterion[c];
  return {
    slots: humans.slots,
    items,
    codes: fold ? codes.map((x) => (x < 0 ? x : fold(x))) : codes,
    slotUser: humans.slotUser,
    users: humans.users,
  };
}

/**
 * When each item's ground-truth label (of one criterion or dimension) was settled: the ruling's time (`ruling[i]`,
 * −1 without one) where an adjudicator decided a disagreement, otherwise the time of the item's last counting
 * review (agreement or majority). Ms since epoch, −1 where there is no ground truth.
 */
export function settledTimes(db: Db, study: { id: number }, items: ItemIndex, ruling: Float64Array, gold: Int8Array, humans: HumanBlock) {
  const n = items.n;
  const lastReview = new Float64Array(n).fill(-1);
  for (const [itemId, at] of cq.lastReviewTimes(db, study.id)) {
    const i = items.of(itemId);
    if (i >= 0) lastReview[i] = at;
  }
  const unanimous = new Uint8Array(n).fill(1);
  const S = humans.slots;
  for (let r = 0; r < humans.items.length; r++) {
    let first = -1;
    for (let s = 0; s < S; s++) {
      const code = humans.codes[r * S + s];
      if (code < 0) continue;
      if (first < 0) first = code;
      else if (code !== first) unanimous[humans.items[r]] = 0;
    }
  }
  const at = new Float64Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (gold[i] < 0) continue;
    at[i] = !unanimous[i] && ruling[i] >= 0 ? ruling[i] : lastReview[i];
  }
  return at;
}

/* ----- the kinds ----- */

/** The options of either kind as they come from the registry or a caller; each part parses the ones it reads. */
export type CertifyOptions = {
  judge: string;
  criterion?: string;
  target?: number | string;
  epsilon?: number | string;
  /** Rubric studies: the judge sample (1 unless asked) and whether labels are folded by the lenient maps. */
  sample?: number | string;
  lenient?: boolean | string;
};

type CertifyPart = (db: Db, actor: Actor, studyId: number, opts: CertifyOptions) => CertifyInput;

/** A pairwise study: one criterion (overall unless asked); its latest active draw on the criterion, if any. */
function pairwise(db: Db, actor: Actor, studyId: number, opts: CertifyOptions): CertifyInput {
  const study = analysableStudy(db, actor, studyId);
  const { judge, criterion, target, epsilon } = parseInput(
    z.object({
      judge: judgeNameSchema,
      criterion: z.string().trim().min(1).default(OVERALL),
      target: certifyTargetSchema,
      epsilon: altTestEpsilonSchema,
    }),
    { judge: opts.judge, criterion: opts.criterion, target: opts.target, epsilon: opts.epsilon },
  );
  const run = judgeRunNamed(db, studyId, judge);
  const frame = loadFrame(db, study);
  const c = criterionIndex(frame, criterion);
  const { n } = frame;
  const goldAll = loadGold(db, frame).gold;
  const verdictAll = loadJudge(db, frame, run.id).verdict;
  const humans = loadHumanLabels(db, frame);
  const gold = goldAll.subarray(c * n, (c + 1) * n);
  const ruling = new Float64Array(n).fill(-1);
  for (const [itemId, crit, time] of cq.rulingTimes(db, studyId)) {
    if (crit !== criterion) continue;
    const i = frame.items.of(itemId);
    if (i >= 0) ruling[i] = time;
  }
  const design = latestDesign(db, studyId, frame.items, run.id, criterion);
  return {
    study,
    head: { judge: run.name, criterion },
    items: frame.items,
    gold,
    verdict: verdictAll.subarray(c * n, (c + 1) * n),
    at: settledTimes(db, study, frame.items, ruling, gold, humanBlock(humans, c)),
    target,
    epsilon,
    altTest: frame.criteria.map((crit, k) => ({
      criterion: crit,
      humans: humanBlock(humans, k),
      verdict: verdictAll.subarray(k * n, (k + 1) * n),
      labels: Q,
    })),
    active: design && {
      design,
      uncertainty: uncertaintyOf(db, frame, run.id, c, design.draw.source, design.draw.secondRunId),
    },
  };
}

/**
 * A rubric study: one dimension (the first unless asked), of one judge sample, strictly or after the dimensions'
 * lenient folding (the alternative annotator test folds every dimension that has a map alike). Under an active draw
 * on the dimension it decides on the weighted estimate and names it; without one it names no estimator.
 */
function rubric(db: Db, actor: Actor, studyId: number, opts: CertifyOptions): CertifyInput {
  const study = analysableRubricStudy(db, actor, studyId);
  const o = parseInput(
    z.object({
      judge: judgeNameSchema,
      sample: sampleSchema,
      criterion: z.string().trim().min(1).optional(),
      lenient: lenientSchema,
      target: certifyTargetSchema,
      epsilon: altTestEpsilonSchema,
    }),
    opts,
  );
  const run = judgeRunNamed(db, studyId, o.judge);
  const frame = loadRubricFrame(db, study);
  const d = dimensionIndex(frame, o.criterion);
  requireLenientMap(frame, d, o.lenient, 'ask for strict certification');
  const { n, D } = frame;
  const goldAll = loadRubricGold(db, frame).gold;
  const verdictAll = loadRubricJudge(db, frame, run, o.sample);
  const humans = loadRubricHumanLabels(db, frame);

  // Codes of dimension k, folded by its lenient map when asked for and it has one.
  const fold = (k: number) => (o.lenient && frame.lenient[k] ? frame.lenient[k] : null);
  const codesOf = (all: Int8Array, k: number) => {
    const slice = all.subarray(k * n, (k + 1) * n);
    const map = fold(k);
    return map ? slice.map((x) => (x < 0 ? x : map[x])) : slice;
  };
  const gold = codesOf(goldAll, d);
  const ruling = new Float64Array(n).fill(-1);
  for (const [itemId, dim, time] of cq.rubricRulingTimes(db, studyId)) {
    if (dim !== d) continue;
    const i = frame.items.of(itemId);
    if (i >= 0) ruling[i] = time;
  }
  return {
    study,
    head: { kind: 'rubric', judge: run.name, sample: o.sample, criterion: frame.dimensions[d].id, lenient: o.lenient },
    items: frame.items,
    gold,
    verdict: codesOf(verdictAll, d),
    // Unanimity (which decides whether a ruling settled the label) is read on the labels as given, as the rule reads them.
    at: settledTimes(db, study, frame.items, ruling, gold, humanBlock(humans, d)),
    target: o.target,
    epsilon: o.epsilon,
    altTest: Array.from({ length: D }, (_, k) => {
      const dim = frame.dimensions[k];
      const map = fold(k);
      return {
        criterion: { id: dim.id, name: dim.name },
        humans: humanBlock(humans, k, map ? (x) => map[x] : undefined),
        verdict: codesOf(verdictAll, k),
        labels: map ? frame.lenientLabels[k]!.length : dim.labels.length,
      };
    }),
    ...rubricActive(db, frame, run, d),
  };
}

/**
 * Under an active draw of the run on the dimension, the design and the judge's uncertainty from the draw's source
 * (decision 0045); without one nothing, so the report names no estimator, as before there were rubric draws.
 */
function rubricActive(db: Db, frame: RubricFrame, run: { id: number; name: string }, d: number): Pick<CertifyInput, 'active'> {
  const design = latestDesign(db, frame.study.id, frame.items, run.id, frame.dimensions[d].id);
  if (!design) return {};
  const { source, secondRunId } = design.draw;
  const second = secondRunId === null ? null : { id: secondRunId, name: '' };
  return { active: { design, uncertainty: rubricUncertainty(db, frame, run, d, source, second) } };
}

/** The certification's kind parts, by kind id: the one place the core looks a kind up. */
export const CERTIFY_BY_KIND = { pairwise, rubric } satisfies Record<string, CertifyPart>;
export type CertifyKind = keyof typeof CERTIFY_BY_KIND;
