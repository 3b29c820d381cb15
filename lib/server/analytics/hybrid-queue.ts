import 'server-only';
import { z } from 'zod';
import { getDb, inTransaction } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import { hybridReviewPlan, hybridReviewQueue } from '@/lib/stats';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import type { StudyRow } from '@/db/queries/studies';
import { conflict } from '../errors';
import { studyForStaff } from '../review/access';
import { guaranteedReview, queuePlanSchema } from './acceptance';
import type { HybridPlanDto, HybridQueueDto, RubricHybridQueueDto } from './dto';
import { hybridPart, parseHybrid, planned } from './hybrid';
import { activeReviewers, appendToQueues } from './review-queue';

const QUEUE_OPTIONS = {
  plan: queuePlanSchema,
  usernames: z.array(z.string().trim().toLowerCase().min(1)).min(1, { error: 'Choose at least one reviewer.' }).max(200),
};

/** The queue's options beyond its plan's: the kind's own (a rubric study's `perTutor`), the plan to follow, the people. */
export const queueOptionsOf = (study: StudyRow) => ({ ...hybridPart(study).queueOptions, ...QUEUE_OPTIONS });

/** A plan's tallies over the whole label set (a label never predicted counts 0), as `hybridReviewPlan` reads them. */
const tallies = (p: HybridPlanDto, labels: readonly string[]) =>
  labels.map((label) => {
    const c = p.classes.find((k) => k.label === label);
    return { label, predicted: c?.predicted ?? 0, correct: c?.correct ?? 0 };
  });

/**
 * Opens the review queue a hybrid plan calls for, for every kind of study. The plan is calibrated on the items that
 * have both ground truth and a verdict; the queue covers the items the judge labelled that no person has reviewed
 * yet: every one the judge put in a reviewed class, plus a seeded random sample of the accepted class of the size
 * the plan expects. With `plan: 'guaranteed'` it follows error-bounded acceptance instead: every unreviewed item
 * outside the classes accepted with the guarantee, and no random checks. Where the kind has groups with plans of
 * their own (a rubric study's tutors), `perTutor` makes each group's items follow its own plan. Each item goes to one
 * of the chosen people (balanced); their reviews become ground truth like any other. Leads and admins only.
 */
export function openHybridQueue(actor: Actor, studyId: number, input: unknown): HybridQueueDto | RubricHybridQueueDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  // Parsed once with the plan's own options, so the queue follows the plan its options describe.
  const { part, o } = parseHybrid(study, input, queueOptionsOf(study));
  if (study.status !== 'open') throw conflict('Open the study before sending items to people.');
  const { source, report } = planned(db, study, part, o);
  const usernames = o.usernames as string[];
  const plan = o.plan as 'pado' | 'guaranteed';
  const reviewers = activeReviewers(db, usernames);

  return inTransaction(db, () => {
    const reviewed = new Set(assignmentsQ.assignedItemIds(db, studyId));
    const { itemIds: itemAt, codes } = source;
    const n = itemAt.length;
    const plans =
      o.perTutor === true && source.groups
        ? (report as { byModel: HybridPlanDto[] }).byModel.map((p, t) => ({ plan: p, seed: study.seed + t, has: source.groups![t].has }))
        : [{ plan: report as HybridPlanDto, seed: study.seed, has: () => true }];
    let routed = 0;
    let extra = 0;
    const chosen: number[] = [];
    for (const { plan: p, seed, has } of plans) {
      // Only items nobody has reviewed are candidates; the rest already have (or will have) people's labels.
      const predictions = new Int8Array(n).fill(-1);
      for (let i = 0; i < n; i++) if (!reviewed.has(itemAt[i]) && has(i)) predictions[i] = codes.verdict[i];
      const queue =
        plan === 'guaranteed'
          ? { review: guaranteedReview(predictions, codes.labels, p.acceptance, codes.confidence), extra: [] }
          : hybridReviewQueue(predictions, codes.labels, hybridReviewPlan(tallies(p, codes.labels), { target: o.target }), {
              seed,
              extra: 'expected',
            });
      routed += queue.review.length;
      extra += queue.extra.length;
      for (const i of queue.review) chosen.push(itemAt[i]);
      for (const i of queue.extra) chosen.push(itemAt[i]);
    }
    const itemIds = chosen.sort((a, b) => a - b);
    if (!itemIds.length) throw conflict('No unreviewed item needs people under this plan.');

    const perUser = appendToQueues(db, studyId, study.seed ^ source.runId, itemIds, reviewers, usernames);
    const fields = source.queueFields(o);
    audit(db, {
      userId: actor.id,
      action: 'hybrid_queue_opened',
      studyId,
      detail: {
        judge: o.judge,
        criterion: source.criterion,
        target: o.target,
        ...fields,
        plan,
        ...(plan === 'guaranteed' ? { epsilon: o.epsilon, delta: o.delta } : {}),
        routed,
        extra,
      },
    });
    return { judge: o.judge, criterion: source.criterion, ...fields, routed, extra, assignments: perUser } as HybridQueueDto;
  });
}
