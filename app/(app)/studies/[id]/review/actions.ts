'use server';

import { runAction } from '@/lib/auth/handlers';
import { getQueue, reviseSubmission, undoLastSubmission } from '@/lib/server/review/flow-review';
import { abandonRevision, setComment, setFlag, skipAssignment } from '@/lib/server/review/item-actions';
import { submitAndQueue } from '@/lib/server/review/submit-and-queue';

/**
 * Submits and returns the reviewer's queue as it is now, so the next item can be shown at once. The queue is that of
 * the assignment's study (the screen's `studyId` is not needed for it).
 */
export async function submitFlowReviewAction(input: {
  studyId: number;
  assignmentId: number;
  requestId: string;
  activeMs: number;
  decision: unknown;
}) {
  return runAction((actor) => submitAndQueue(actor, input));
}

export async function undoLastSubmissionAction(input: { studyId: number }) {
  return runAction((actor) => {
    const result = undoLastSubmission(actor, input);
    return { ...result, queue: getQueue(actor, input.studyId) };
  });
}

/** Submits a pairwise judgment and returns the reviewer's queue as it is now (as `submitFlowReviewAction`). */
export async function submitJudgmentAction(input: {
  studyId: number;
  assignmentId: number;
  requestId: string;
  activeMs: number;
  choices: Record<string, string>;
}) {
  return runAction((actor) => submitAndQueue(actor, input));
}

/** Puts the item at the end of the reviewer's queue and returns the queue as it is now. */
export async function skipItemAction(input: { assignmentId: number; queuePosition: number; activeMs: number }) {
  return runAction((actor) => {
    const result = skipAssignment(actor, input);
    return { ...result, queue: getQueue(actor, result.studyId) };
  });
}

export async function flagItemAction(input: { assignmentId: number; reason: string | null }) {
  return runAction((actor) => setFlag(actor, input));
}

export async function commentItemAction(input: { assignmentId: number; comment: string }) {
  return runAction((actor) => setComment(actor, input));
}

/** Starts revising a submitted item from the reviewer's history; the review screen then shows it first. It still counts. */
export async function reviseSubmissionAction(input: { assignmentId: number }) {
  return runAction((actor) => reviseSubmission(actor, input));
}

/** Gives up a revision under way (the submission stays as it was) and returns the reviewer's queue as it is now. */
export async function abandonRevisionAction(input: { assignmentId: number }) {
  return runAction((actor) => {
    const result = abandonRevision(actor, input);
    return { ...result, queue: getQueue(actor, result.studyId) };
  });
}

/** Submits a rubric annotation and returns the reviewer's queue as it is now (as `submitFlowReviewAction`). */
export async function submitRubricAction(input: {
  studyId: number;
  assignmentId: number;
  requestId: string;
  activeMs: number;
  labels: Record<string, string>;
  note?: string;
}) {
  return runAction((actor) => submitAndQueue(actor, input));
}
