'use server';

import { runAction } from '@/lib/auth/handlers';
import { saveJudgmentDraft, submitJudgment } from '@/lib/server/review/judging';
import { getQueue, saveFlowDraft, submitFlowReview, undoLastSubmission } from '@/lib/server/review/flow-review';

export async function saveFlowDraftAction(input: { assignmentId: number; draft: unknown; activeMs: number }) {
  return runAction((actor) => saveFlowDraft(actor, input));
}

/** Submits and returns the reviewer's queue as it is now, so the next item can be shown at once. */
export async function submitFlowReviewAction(input: { studyId: number; assignmentId: number; requestId: string; activeMs: number; decision: unknown }) {
  return runAction((actor) => {
    const result = submitFlowReview(actor, input);
    return { ...result, queue: getQueue(actor, input.studyId) };
  });
}

export async function undoLastSubmissionAction(input: { studyId: number }) {
  return runAction((actor) => {
    const result = undoLastSubmission(actor, input);
    return { ...result, queue: getQueue(actor, input.studyId) };
  });
}

export async function saveJudgmentDraftAction(input: { assignmentId: number; draft: unknown; activeMs: number }) {
  return runAction((actor) => saveJudgmentDraft(actor, input));
}

/** Submits a pairwise judgment and returns the reviewer's queue as it is now. */
export async function submitJudgmentAction(input: { studyId: number; assignmentId: number; requestId: string; activeMs: number; choices: Record<string, string> }) {
  return runAction((actor) => {
    const result = submitJudgment(actor, input);
    return { ...result, queue: getQueue(actor, input.studyId) };
  });
}
