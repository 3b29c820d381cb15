import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import { classwiseAccuracy, hybridReviewPlan } from '@/lib/stats';
import { OVERALL } from '@/lib/validation/common';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { type AcceptanceLevels, acceptanceFromCodes, acceptanceOptions } from './acceptance';
import { loadVerdictConfidences } from './confidences';
import { LABEL_SET, analysableStudy, judgeNameSchema, judgeRunNamed, loadFrame, loadGold, loadJudge, statDto, wilson } from './data';
import type { HybridClassDto, HybridPlanDto, HybridReportDto } from './dto';

const optionsSchema = z.object({
  judge: judgeNameSchema,
  criterion: z.string().trim().min(1).default(OVERALL),
  target: z.coerce
    .number({ error: 'target must be a number.' })
    .gt(0, { error: 'target must be above 0.' })
    .max(1, { error: 'target is an accuracy, at most 1.' })
    .default(0.95),
  ...acceptanceOptions,
});

/**
 * Padó's (2025) hybrid review plan for one judge run and one criterion, from the calibration sample of items with
 * both ground truth and a verdict: class-wise accuracy of each predicted class, which class to accept and which to
 * send to people, the hybrid accuracy, the effort saved and the extra reviews needed to reach the target.
 * Opening the review queue is a separate step. Leads and admins only.
 */
export function hybridReport(
  actor: Actor,
  studyId: number,
  opts: { judge: string; criterion?: string; target?: number | string; epsilon?: number | string; delta?: number | string },
): HybridReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const { judge, criterion, target, epsilon, delta } = parseInput(optionsSchema, opts);
  const run = judgeRunNamed(db, studyId, judge);
  const frame = loadFrame(db, study);
  const c = frame.criterionIds.indexOf(criterion);
  if (c < 0)
    throw invalid(`"${criterion}" is not a criterion of this study; use one of: ${frame.criterionIds.join(', ')}.`, {
      criterion: 'Unknown criterion',
    });
  const { n } = frame;
  const gold = loadGold(db, frame).gold.subarray(c * n, (c + 1) * n);
  const codes = loadJudge(db, frame, run.id);
  const verdict = codes.verdict.subarray(c * n, (c + 1) * n);
  const confidence = loadVerdictConfidences(db, frame, run.id, codes).subarray(c * n, (c + 1) * n);
  return {
    studyId,
    judge: run.name,
    criterion,
    target,
    ...hybridPlanFromCodes(gold, verdict, LABEL_SET, target, { epsilon, delta }, undefined, confidence),
  };
}

/**
 * Padó's plan and error-bounded acceptance beside it, for every kind of study, from the codes (into `labels`, −1:
 * none) of the items `keep` selects. Padó's plan counts the calibration sample only (items with both labels; ground
 * truth without a verdict is `unjudged`); the acceptance also counts the items the judge labelled without ground truth,
 * and stratifies by the judge's confidence too where `confidence` (NaN: none) has any.
 */
export function hybridPlanFromCodes(
  gold: ArrayLike<number>,
  verdict: ArrayLike<number>,
  labels: readonly string[],
  target: number,
  levels: AcceptanceLevels,
  keep: (i: number) => boolean = () => true,
  confidence?: ArrayLike<number>,
): HybridPlanDto {
  const q = labels.length;
  const confusion = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  let unjudged = 0;
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i];
    if (g < 0 || !keep(i)) continue;
    const v = verdict[i];
    if (v < 0) unjudged++;
    else confusion[g][v]++;
  }
  const plan = hybridPlanDto(confusion, labels, target, unjudged);
  return { ...plan, acceptance: acceptanceFromCodes(gold, verdict, labels, levels, plan.acceptedClass, keep, confidence) };
}

/**
 * Padó's plan from a confusion matrix (rows = ground truth, columns = the judge, in `labels` order) on the
 * calibration sample; `unjudged` ground-truth labels had no verdict.
 */
function hybridPlanDto(
  confusion: number[][],
  labels: readonly string[],
  target: number,
  unjudged: number,
): Omit<HybridPlanDto, 'acceptance'> {
  const accuracies = classwiseAccuracy(confusion, labels);
  const plan = hybridReviewPlan(
    accuracies.map((a) => ({ label: a.label, predicted: a.predicted, correct: a.correct })),
    { target },
  );
  const N = plan.total;
  const correctAll = accuracies.reduce((s, a) => s + a.correct, 0);
  const accepted = plan.classes.find((k) => k.decision === 'accept');
  const hybridCorrect = (accepted?.correct ?? 0) + plan.reviewed;
  return {
    n: N,
    accJudge: statDto(plan.accJudge),
    classes: plan.classes.flatMap((k, idx): HybridClassDto[] =>
      k.decision === 'none'
        ? []
        : [
            {
              label: k.label,
              predicted: k.predicted,
              correct: k.correct,
              classwiseAccuracy: statDto(accuracies[idx].accuracy),
              decision: k.decision,
              interval: wilson(k.correct, k.predicted),
            },
          ],
    ),
    unpredictedLabels: plan.classes.filter((k) => k.decision === 'none').map((k) => k.label),
    acceptedClass: plan.acceptedClass,
    reviewedClasses: [...plan.reviewedClasses],
    reviewed: plan.reviewed,
    accHybrid: statDto(plan.accHybrid),
    effortSaved: statDto(plan.effortSaved),
    errorsToFix: plan.errorsToFix,
    extraReviewsExpected: plan.extraReviewsExpected,
    accExpectedAfter: statDto(plan.accExpectedAfter),
    effortSavedExpectedAfter: statDto(plan.effortSavedExpectedAfter),
    extraReviewsWorstCase: plan.extraReviewsWorstCase,
    effortSavedWorstCase: statDto(plan.effortSavedWorstCase),
    unjudged,
    intervals: {
      accJudge: wilson(correctAll, N),
      accHybrid: wilson(hybridCorrect, N),
      effortSaved: wilson(N - plan.reviewed, N),
    },
  };
}
