import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import * as cq from '@/db/queries/certify';
import { OVERALL } from '@/lib/validation/common';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { type CertifyInput, altTestEpsilonSchema, certifyTargetSchema, humanBlock, settledTimes } from './certify';
import { latestDesign } from './corrected-leaderboard-active';
import { Q, analysableStudy, judgeNameSchema, judgeRunNamed, loadFrame, loadGold, loadHumanLabels, loadJudge } from './data';
import { uncertaintyOf } from './review-queue-active';
import {
  analysableRubricStudy,
  dimensionIndex,
  lenientSchema,
  loadRubricFrame,
  loadRubricGold,
  loadRubricHumanLabels,
  loadRubricJudge,
  requireLenientMap,
  sampleSchema,
} from './rubric-data';

/*
 * What the certification core (`certify.ts`) needs from a study, per kind: the study checked for the actor, the
 * options parsed, one criterion's ground truth and verdicts with the times they were settled, every criterion's
 * reviewer labels and verdicts for the alternative annotator test, and the fields the kind's report names itself by.
 * Each part keeps the order of its checks (study, options, judge run, criterion), so the errors are the same.
 */

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

/** A pairwise study: one criterion (overall unless asked); the only kind with active draws so far. */
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
 * lenient folding (the alternative annotator test folds every dimension that has a map alike). No active draws:
 * its report names no estimator.
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
  };
}

/** The certification's kind parts, by kind id: the one place the core looks a kind up. */
export const CERTIFY_BY_KIND = { pairwise, rubric } satisfies Record<string, CertifyPart>;
export type CertifyKind = keyof typeof CERTIFY_BY_KIND;
