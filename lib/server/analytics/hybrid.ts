import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import { getDb } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import { classwiseAccuracy, hybridReviewPlan } from '@/lib/stats';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { staffStudyOfKind, studyForStaff } from '../review/access';
import { type AcceptanceLevels, acceptanceFromCodes, acceptanceOptions } from './acceptance';
import { statDto, wilson } from './data';
import type { HybridChoicesDto, HybridClassDto, HybridPlanDto } from './dto';
import {
  type HybridCodes,
  type HybridDtoOf,
  type HybridKind,
  type HybridKindPart,
  type HybridSource,
  HYBRID_BY_KIND,
  hybridOptions,
} from './hybrid-by-kind';

/*
 * Padó's hybrid review plan, with error-bounded acceptance beside it, for every kind of study: the kind loads its
 * codes in one shape (`hybrid-by-kind.ts`), the plans are computed here.
 */

/** A hybrid report's options as given (a query string, the command line, a form); a kind reads its own too. */
export type HybridOptions = {
  judge: string;
  criterion?: string;
  target?: number | string;
  epsilon?: number | string;
  delta?: number | string;
  /** Rubric studies: the judge sample, and whether labels are folded by the dimension's lenient map. */
  sample?: number | string;
  lenient?: boolean | string;
};

/** The kind's part of the plan, refusing a kind without one. */
export function hybridPart(study: StudyRow): HybridKindPart {
  const part = HYBRID_BY_KIND[study.kind];
  if (!part) throw invalid('The hybrid plan is for pairwise and rubric studies.');
  return part;
}

/** The options schema of a kind's plan: the shared ones, the acceptance's levels, the kind's own, and `more`. */
export const hybridSchema = (part: HybridKindPart, more: z.ZodRawShape = {}) =>
  z.object({ ...hybridOptions, ...acceptanceOptions, ...part.options, ...more });

export type ParsedHybridOptions = { judge: string; criterion?: string; target: number; epsilon: number; delta: number } & Record<
  string,
  unknown
>;

/**
 * The plan's report from a kind's codes: Padó's plan on the planned entry, every group's and every entry's where the
 * kind has them, each with error-bounded acceptance beside it.
 */
export function hybridFromSource(studyId: number, source: HybridSource, o: ParsedHybridOptions): Record<string, unknown> & HybridPlanDto {
  const levels = { epsilon: o.epsilon, delta: o.delta };
  const planOn = (c: HybridCodes, keep?: (i: number) => boolean) =>
    hybridPlanFromCodes(c.gold, c.verdict, c.labels, o.target, levels, keep, c.confidence);
  return {
    studyId,
    ...source.head,
    target: o.target,
    ...source.afterTarget,
    ...planOn(source.codes),
    ...(source.groups ? { byModel: source.groups.map((g) => ({ model: g.model, ...planOn(source.codes, g.has) })) } : {}),
    ...(source.entries ? { byCriterion: source.entries.map((e) => ({ ...e.head, ...planOn(e.codes()) })) } : {}),
  };
}

/**
 * Padó's (2025) hybrid review plan for one judge run and one catalog entry (a pairwise criterion; a rubric
 * dimension, strict or folded leniently, with each tutor's plan and every dimension's beside it), from the
 * calibration sample of items with both ground truth and a verdict: class-wise accuracy of each predicted class,
 * which class to accept and which to send to people, the hybrid accuracy, the effort saved and the extra reviews
 * needed to reach the target. `kind` refuses a study of another kind (each kind's report has its own name).
 * Opening the review queue is a separate step (`hybrid-queue.ts`). Leads and admins only.
 */
export function hybridReport<K extends HybridKind>(actor: Actor, studyId: number, opts: HybridOptions, kind: K): HybridDtoOf[K];
export function hybridReport(actor: Actor, studyId: number, opts: HybridOptions): HybridDtoOf[HybridKind];
export function hybridReport(actor: Actor, studyId: number, opts: HybridOptions, kind?: HybridKind): HybridDtoOf[HybridKind] {
  const db = getDb();
  const study = kind ? staffStudyOfKind(db, actor, studyId, kind, 'This report') : studyForStaff(db, actor, studyId);
  const { part, o } = parseHybrid(study, opts);
  return planned(db, study, part, o).report;
}

/** What the hybrid dashboard offers on this study: the entries to plan on, the kind's words, the queue's orders. */
export function hybridChoices(actor: Actor, studyId: number): HybridChoicesDto {
  const study = studyForStaff(getDb(), actor, studyId);
  return hybridPart(study).choices(study);
}

/** The options of a study's plan as parsed, with `more` (a queue's), and the kind's part that reads them. */
export function parseHybrid(study: StudyRow, input: unknown, more: z.ZodRawShape = {}) {
  const part = hybridPart(study);
  return { part, o: parseInput(hybridSchema(part, more), input) as ParsedHybridOptions };
}

/** The plan of a study the caller may read, with the kind's codes it came from. */
export function planned(db: Db, study: StudyRow, part: HybridKindPart, o: ParsedHybridOptions) {
  const source = part.load(db, study, o);
  return { source, report: hybridFromSource(study.id, source, o) as unknown as HybridDtoOf[HybridKind] };
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
