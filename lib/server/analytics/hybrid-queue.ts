import 'server-only';
import { getDb, inTransaction } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import { hybridReviewPlan, hybridReviewQueue } from '@/lib/stats';
import { z } from 'zod';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict } from '../errors';
import { parseInput } from '../parse';
import { LABEL_SET, analysableStudy, judgeRunNamed, loadFrame, loadJudge } from './data';
import { acceptanceOptions, guaranteedReview, queuePlanSchema } from './acceptance';
import { loadVerdictConfidences } from './confidences';
import { hybridReport } from './hybrid';
import type { HybridQueueDto } from './dto';
import { activeReviewers, appendToQueues } from './review-queue';

const optionsSchema = z.object({
  judge: z.string().trim().min(1, { error: 'Name the judge run.' }),
  criterion: z.string().trim().min(1).default('overall'),
  target: z.coerce.number().gt(0).max(1).default(0.95),
  ...acceptanceOptions,
  plan: queuePlanSchema,
  usernames: z.array(z.string().trim().toLowerCase().min(1)).min(1, { error: 'Choose at least one reviewer.' }).max(200),
});

/**
 * Opens the review queue a hybrid plan calls for. The plan is calibrated on the items that have both ground
 * truth and a verdict; the queue covers the items the judge labelled that no person has reviewed yet: every one
 * the judge put in a reviewed class, plus a seeded random sample of the accepted class of the size the plan
 * expects. With `plan: 'guaranteed'` it follows error-bounded acceptance instead: every unreviewed item outside the
 * classes accepted with the guarantee, and no random checks. Each goes to one of the chosen people (balanced); their
 * reviews become ground truth like any other.
 */
export function openHybridQueue(actor: Actor, studyId: number, input: unknown): HybridQueueDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const opts = parseInput(optionsSchema, input);
  if (study.status !== 'open') throw conflict('Open the study before sending items to people.');
  const report = hybridReport(actor, studyId, opts);
  const plan = hybridReviewPlan(
    report.classes.map((c) => ({ label: c.label, predicted: c.predicted, correct: c.correct })),
    { target: opts.target },
  );
  const reviewers = activeReviewers(db, opts.usernames);

  return inTransaction(db, () => {
    const frame = loadFrame(db, study);
    const c = frame.criterionIds.indexOf(opts.criterion);
    const run = judgeRunNamed(db, studyId, opts.judge);
    const codes = loadJudge(db, frame, run.id);
    const verdict = codes.verdict.subarray(c * frame.n, (c + 1) * frame.n);
    const reviewed = new Set(assignmentsQ.assignedItemIds(db, studyId));
    const itemAt = new Int32Array(frame.n);
    frame.items.ids.forEach((itemId, i) => (itemAt[i] = itemId));
    // Only items nobody has reviewed are candidates; the rest already have (or will have) people's labels.
    const predictions = new Int8Array(frame.n).fill(-1);
    for (let i = 0; i < frame.n; i++) if (!reviewed.has(itemAt[i])) predictions[i] = verdict[i];
    const queue =
      opts.plan === 'guaranteed'
        ? {
            review: guaranteedReview(
              predictions,
              LABEL_SET,
              report.acceptance,
              loadVerdictConfidences(db, frame, run.id, codes).subarray(c * frame.n, (c + 1) * frame.n),
            ),
            extra: [],
          }
        : hybridReviewQueue(predictions, LABEL_SET, plan, { seed: study.seed, extra: 'expected' });
    const itemIds = [...queue.review, ...queue.extra].map((i) => itemAt[i]).sort((a, b) => a - b);
    if (!itemIds.length) throw conflict('No unreviewed item needs people under this plan.');

    const perUser = appendToQueues(db, studyId, study.seed ^ run.id, itemIds, reviewers, opts.usernames);
    audit(db, {
      userId: actor.id,
      action: 'hybrid_queue_opened',
      studyId,
      detail: {
        judge: opts.judge,
        criterion: opts.criterion,
        target: opts.target,
        plan: opts.plan,
        ...(opts.plan === 'guaranteed' ? { epsilon: opts.epsilon, delta: opts.delta } : {}),
        routed: queue.review.length,
        extra: queue.extra.length,
      },
    });
    return { judge: opts.judge, criterion: opts.criterion, routed: queue.review.length, extra: queue.extra.length, assignments: perUser };
  });
}
