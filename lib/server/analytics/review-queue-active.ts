import 'server-only';
import { z } from 'zod';
import { getDb, inTransaction } from '@/db/client';
import type { Db } from '@/db/client';
import * as drawsQ from '@/db/queries/active-draws';
import * as assignmentsQ from '@/db/queries/assignments';
import { UNCERTAINTY_SOURCES } from '@/db/schema/active';
import { drawLabelledItems, labellingProbabilities } from '@/lib/stats';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { loadVerdictConfidences } from './confidences';
import { parseInput } from '../parse';
import { type Frame, LABEL_SET, loadJudge } from './data';
import type { ActiveQueueDto } from './dto';
import { activeReviewers, appendToQueues } from './review-queue';
import type { StudyRow } from '@/db/queries/studies';
import { studyForStaff } from '../review/access';
import { ACTIVE_BY_KIND, type ActiveKindPart } from './review-queue-active-by-kind';

/*
 * Active labelling (Zrnic & Candès 2024; STATS-3 part E): the items people label are drawn with a probability that
 * grows with the judge's uncertainty about them, with a floor τ·b and a budget b (the share of the pool people are
 * expected to label). The draw is made and stored (π for every item of the pool) before any of its labels exists,
 * so the corrected leaderboard and the certification can weight each label by 1/π and stay unbiased
 * (`corrected-leaderboard-active.ts`). Decision 0032.
 */

export const activeOrderSchema = z.object({
  source: z
    .enum(UNCERTAINTY_SOURCES, {
      error: 'The uncertainty comes from the two orders, the samples, the judge’s own confidence or a second judge run.',
    })
    // The kind's first source where none is asked (`ACTIVE_BY_KIND`): a pair's two orders, a rubric run's samples.
    .optional(),
  secondJudge: z.string().trim().optional(),
  budget: z.coerce
    .number({ error: 'budget must be a number.' })
    .gt(0, { error: 'budget is a share above 0.' })
    .max(1, { error: 'budget is a share, at most 1.' })
    .default(0.2),
  // τ > 0 keeps every π above 0: an item that could never be drawn would make the estimate biased.
  tau: z.coerce
    .number({ error: 'tau must be a number.' })
    .gt(0, { error: 'tau must be above 0 (it is the floor).' })
    .max(1, { error: 'tau is at most 1.' })
    .default(0.5),
});

const optionsSchema = activeOrderSchema.extend({
  judge: z.string().trim().min(1, { error: 'Name the judge run.' }),
  // The kind's first entry where none is asked: a pairwise study's overall criterion, a rubric study's first dimension.
  criterion: z.string().trim().min(1).optional(),
  usernames: z.array(z.string().trim().toLowerCase().min(1)).min(1, { error: 'Choose at least one reviewer.' }).max(200),
});

/** A pairwise code as the share of a win it is (lose 0, tie ½, win 1), so two verdicts' distance is graded. */
const SCORE = [0, 0.5, 1];

/**
 * The judge's uncertainty about each item on one criterion, in [0, ½]: half the distance between two verdicts on
 * it — the two orders of the run, or the run and a second run (lose/win ½, tie/other ¼, same 0). Where one of the
 * two is missing, the mean of the others (the item is neither favoured nor avoided); null where the run has no verdict.
 */
export function judgeUncertainty(first: Int8Array, second: Int8Array, verdict: Int8Array): (number | null)[] {
  const u: (number | null)[] = [];
  let sum = 0;
  let known = 0;
  for (let i = 0; i < verdict.length; i++) {
    if (verdict[i] < 0) u.push(null);
    else if (first[i] >= 0 && second[i] >= 0) {
      const d = Math.abs(SCORE[first[i]] - SCORE[second[i]]) / 2;
      u.push(d);
      sum += d;
      known++;
    } else u.push(Number.NaN);
  }
  const fill = known ? sum / known : 0;
  return u.map((x) => (x !== null && Number.isNaN(x) ? fill : x));
}

/**
 * The spread of a launched run's samples on each item, in [0, ½]: p = the mean score of every sample's verdict in
 * both orders (lose 0, tie ½, win 1), u = min(p, 1 − p), the authors' uncertainty of a probability. An item with fewer
 * than two readable answers gets the mean of the others; null where the run has no verdict.
 */
export function sampleUncertainty(db: Db, frame: Frame, runId: number, c: number, verdict: Int8Array): (number | null)[] {
  const criterion = frame.criterionIds[c];
  const sum = new Float64Array(frame.n);
  const count = new Int32Array(frame.n);
  for (const [itemId, json] of drawsQ.answerVerdicts(db, runId)) {
    const i = frame.items.of(itemId);
    const label = (JSON.parse(json) as Record<string, string>)[criterion];
    const code = LABEL_SET.indexOf(label as (typeof LABEL_SET)[number]);
    if (i < 0 || code < 0) continue;
    sum[i] += SCORE[code];
    count[i]++;
  }
  const u: (number | null)[] = [];
  let total = 0;
  let known = 0;
  for (let i = 0; i < frame.n; i++) {
    if (verdict[i] < 0) u.push(null);
    else if (count[i] >= 2) {
      const p = sum[i] / count[i];
      u.push(Math.min(p, 1 - p));
      total += Math.min(p, 1 - p);
      known++;
    } else u.push(Number.NaN);
  }
  const fill = known ? total / known : 0;
  return u.map((x) => (x !== null && Number.isNaN(x) ? fill : x));
}

/**
 * A verbalised confidence as the uncertainty, in [0, 1]: u = 1 − the confidence the judge gave with the verdict
 * that counts (`loadVerdictConfidences`, as calibration reads it). A verdict without one gets the mean of the
 * others; null where the run has no verdict. A run that gave no confidence at all is refused: every item would get
 * the same π, a uniform draw dressed as an active one.
 */
export function confidenceUncertainty(confidence: Float64Array, verdict: Int8Array): (number | null)[] {
  const u: (number | null)[] = [];
  let total = 0;
  let known = 0;
  for (let i = 0; i < verdict.length; i++) {
    if (verdict[i] < 0) u.push(null);
    else if (Number.isNaN(confidence[i])) u.push(Number.NaN);
    else {
      u.push(1 - confidence[i]);
      total += 1 - confidence[i];
      known++;
    }
  }
  if (!known)
    throw invalid('This judge run gave no confidence with its verdicts on this criterion; choose another source of uncertainty.', {
      source: 'No confidences',
    });
  const fill = total / known;
  return u.map((x) => (x !== null && Number.isNaN(x) ? fill : x));
}

/** The uncertainty of one run on criterion `c` from the chosen source. */
export function uncertaintyOf(
  db: Db,
  frame: Frame,
  runId: number,
  c: number,
  source: (typeof UNCERTAINTY_SOURCES)[number],
  secondRunId: number | null,
): (number | null)[] {
  const { n } = frame;
  const slice = <A extends Int8Array | Float64Array>(a: A) => a.subarray(c * n, (c + 1) * n) as A;
  const run = loadJudge(db, frame, runId);
  if (source === 'orders') return judgeUncertainty(slice(run.original), slice(run.swapped), slice(run.verdict));
  if (source === 'samples') return sampleUncertainty(db, frame, runId, c, slice(run.verdict));
  if (source === 'confidence') return confidenceUncertainty(slice(loadVerdictConfidences(db, frame, runId, run)), slice(run.verdict));
  const other = loadJudge(db, frame, secondRunId!);
  return judgeUncertainty(slice(run.verdict), slice(other.verdict), slice(run.verdict));
}

/**
 * Opens a review queue in active order, for every kind with an active part (`ACTIVE_BY_KIND`: pairwise and rubric
 * studies): the pool is every item the judge labelled on the criterion (a rubric study's dimension) that no person
 * has reviewed; each is drawn with π_i from the judge's uncertainty (`labellingProbabilities`, a seeded
 * `drawLabelledItems`), the draw is stored, and the drawn items go to the chosen people (balanced, one review each,
 * as the hybrid plan's queue appends them). Leads and admins only.
 */
export function openActiveQueue(actor: Actor, studyId: number, input: unknown): ActiveQueueDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const part = activePart(study);
  const parsed = parseInput(optionsSchema, input);
  const opts = { ...parsed, source: parsed.source ?? part.sources[0] };
  if (study.status !== 'open') throw conflict('Open the study before sending items to people.');
  if (opts.source === 'second_judge' && !opts.secondJudge)
    throw invalid('Name the second judge run whose disagreement is the uncertainty.', { secondJudge: 'Name a judge run' });
  const reviewers = activeReviewers(db, opts.usernames);

  return inTransaction(db, () => {
    const { criterion, run, second, itemIds: ids, uncertainty: u } = part.load(db, study, opts);
    const reviewed = new Set(assignmentsQ.assignedItemIds(db, studyId));
    const pool: number[] = [];
    for (let i = 0; i < ids.length; i++) if (u[i] !== null && !reviewed.has(ids[i])) pool.push(i);
    if (!pool.length) throw conflict('Every item the judge labelled has been sent to people already.');

    const pi = labellingProbabilities(
      pool.map((i) => u[i]!),
      opts.budget,
      opts.tau,
    );
    // Another draw of the same run and criterion draws afresh, reproducibly.
    const earlier = drawsQ.drawsOf(db, studyId, run.id, criterion).length;
    const seed = ((study.seed ^ run.id) + 7919 * earlier) >>> 0;
    const xi = drawLabelledItems(pi, seed);
    const drawId = drawsQ.insertDraw(
      db,
      {
        studyId,
        runId: run.id,
        criterion,
        source: opts.source,
        secondRunId: second?.id ?? null,
        budget: opts.budget,
        tau: opts.tau,
        seed,
        createdBy: actor.id,
      },
      pool.map((i, k) => ({ itemId: ids[i], pi: pi[k], drawn: xi[k] === 1 })),
    );
    const itemIds = pool.filter((_, k) => xi[k] === 1).map((i) => ids[i]);
    if (!itemIds.length) throw conflict('The draw chose no item; raise the budget.');
    const perUser = appendToQueues(db, studyId, seed, itemIds, reviewers, opts.usernames);
    const expected = pi.reduce((a, b) => a + b, 0);
    audit(db, {
      userId: actor.id,
      action: 'active_queue_opened',
      studyId,
      objectId: drawId,
      detail: {
        judge: opts.judge,
        criterion,
        source: opts.source,
        budget: opts.budget,
        tau: opts.tau,
        drawn: itemIds.length,
      },
    });
    return {
      judge: opts.judge,
      criterion,
      source: opts.source,
      secondJudge: second?.name ?? null,
      budget: opts.budget,
      tau: opts.tau,
      seed,
      pool: pool.length,
      expectedLabels: expected,
      drawn: itemIds.length,
      assignments: perUser,
    };
  });
}

/** The kind's part of an active draw, refusing a kind without one. */
function activePart(study: StudyRow): ActiveKindPart {
  const part = ACTIVE_BY_KIND[study.kind];
  if (!part) throw invalid('Active labelling is for pairwise and rubric studies.');
  return part;
}
