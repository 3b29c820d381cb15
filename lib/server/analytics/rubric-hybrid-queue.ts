import 'server-only';
import { z } from 'zod';
import { getDb, inTransaction } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import { hybridReviewPlan, hybridReviewQueue } from '@/lib/stats';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict } from '../errors';
import { parseInput } from '../parse';
import type { HybridPlanDto, RubricHybridQueueDto } from './dto';
import { judgeRunNamed } from './data';
import { analysableRubricStudy, loadRubricFrame, loadRubricGold, loadRubricJudge } from './rubric-data';
import { dimensionIndex } from './rubric-data';
import { guaranteedReview, queuePlanSchema } from './acceptance';
import { loadRubricConfidences } from './confidences';
import { planCodes, rubricHybridOptions, rubricHybridReport } from './rubric-hybrid';
import { activeReviewers, appendToQueues } from './review-queue';

const optionsSchema = rubricHybridOptions.extend({
  /** Each tutor's own plan (Padó Table 4) for its replies, instead of one plan for every tutor. */
  perTutor: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .default(false),
  plan: queuePlanSchema,
  usernames: z.array(z.string().trim().toLowerCase().min(1)).min(1, { error: 'Choose at least one reviewer.' }).max(200),
});

const tallies = (p: HybridPlanDto, labels: readonly string[]) =>
  labels.map((label) => {
    const c = p.classes.find((k) => k.label === label);
    return { label, predicted: c?.predicted ?? 0, correct: c?.correct ?? 0 };
  });

/**
 * Opens the review queue a rubric hybrid plan calls for, with the rules of the pairwise queue (`hybrid-queue.ts`):
 * the replies nobody has reviewed yet that the judge put in a reviewed class on the plan's dimension, plus a seeded
 * random sample of its accepted class of the size the plan expects. With `perTutor`, each tutor's replies follow
 * that tutor's own plan; with `plan: 'guaranteed'`, error-bounded acceptance's instead (`hybrid-queue.ts`). Each reply goes to one of the chosen people (balanced); their reviews become ground truth
 * like any other. Leads and admins only.
 */
export function openRubricHybridQueue(actor: Actor, studyId: number, input: unknown): RubricHybridQueueDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const opts = parseInput(optionsSchema, input);
  if (study.status !== 'open') throw conflict('Open the study before sending items to people.');
  const report = rubricHybridReport(actor, studyId, opts);
  const reviewers = activeReviewers(db, opts.usernames);

  return inTransaction(db, () => {
    const frame = loadRubricFrame(db, study);
    const d = dimensionIndex(frame, report.criterion);
    const run = judgeRunNamed(db, studyId, opts.judge);
    const codes = planCodes(frame, d, loadRubricGold(db, frame).gold, loadRubricJudge(db, frame, run, opts.sample), report.lenient);
    const confidence = loadRubricConfidences(db, frame, run.id, opts.sample).subarray(d * frame.n, (d + 1) * frame.n);
    const reviewed = new Set(assignmentsQ.assignedItemIds(db, studyId));
    const itemAt = frame.items.ids;
    const plans = opts.perTutor
      ? report.byModel.map((m, t) => ({ tutor: t, plan: m as HybridPlanDto }))
      : [{ tutor: -1, plan: report as HybridPlanDto }];
    let routed = 0;
    let extra = 0;
    const chosen: number[] = [];
    for (const { tutor, plan } of plans) {
      // Only replies nobody has reviewed are candidates; the rest already have (or will have) people's labels.
      const predictions = new Int8Array(frame.n).fill(-1);
      for (let i = 0; i < frame.n; i++) {
        if (reviewed.has(itemAt[i]) || (tutor >= 0 && frame.tutorOf[i] !== tutor)) continue;
        predictions[i] = codes.verdict[i];
      }
      const stats = hybridReviewPlan(tallies(plan, codes.labels), { target: opts.target });
      const queue =
        opts.plan === 'guaranteed'
          ? { review: guaranteedReview(predictions, codes.labels, plan.acceptance, confidence), extra: [] }
          : hybridReviewQueue(predictions, codes.labels, stats, { seed: study.seed + Math.max(0, tutor), extra: 'expected' });
      routed += queue.review.length;
      extra += queue.extra.length;
      for (const i of queue.review) chosen.push(itemAt[i]);
      for (const i of queue.extra) chosen.push(itemAt[i]);
    }
    const itemIds = chosen.sort((a, b) => a - b);
    if (!itemIds.length) throw conflict('No unreviewed item needs people under this plan.');

    const perUser = appendToQueues(db, studyId, study.seed ^ run.id, itemIds, reviewers, opts.usernames);
    audit(db, {
      userId: actor.id,
      action: 'hybrid_queue_opened',
      studyId,
      detail: {
        judge: opts.judge,
        criterion: report.criterion,
        target: opts.target,
        lenient: report.lenient,
        perTutor: opts.perTutor,
        plan: opts.plan,
        ...(opts.plan === 'guaranteed' ? { epsilon: opts.epsilon, delta: opts.delta } : {}),
        routed,
        extra,
      },
    });
    return {
      judge: opts.judge,
      criterion: report.criterion,
      lenient: report.lenient,
      perTutor: opts.perTutor,
      routed,
      extra,
      assignments: perUser,
    };
  });
}
