'use server';

import { runAction } from '@/lib/auth/handlers';
import { saveJudgmentDraft } from '@/lib/server/review/judging';
import { getQueue, saveFlowDraft, undoLastSubmission } from '@/lib/server/review/flow-review';
import { submitAndQueue } from '@/lib/server/review/submit-and-queue';
import { saveRubricDraft } from '@/lib/server/review/rubric';

export async function saveFlowDraftAction(input: { assignmentId: number; draft: unknown; activeMs: number }) {
  return runAction((actor) => saveFlowDraft(actor, input));
}

/**
 * Submits and returns the reviewer's queue as it is now, so the next item can be shown at once. The queue is that of
 * the assignment's study (the screen's `studyId` is not needed for it).
 */
export async function submitFlowReviewAction(input: { studyId: number; assignmentId: number; requestId: string; activeMs: number; decision: unknown }) {
  return runAction((actor) => submitAndQueue(actor, input));
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

/** Submits a pairwise judgment and returns the reviewer's queue as it is now (as `submitFlowReviewAction`). */
export async function submitJudgmentAction(input: { studyId: number; assignmentId: number; requestId: string; activeMs: number; choices: Record<string, string> }) {
  return runAction((actor) => submitAndQueue(actor, input));
}

export async function saveRubricDraftAction(input: { assignmentId: number; draft: unknown; activeMs: number }) {
  return runAction((actor) => saveRubricDraft(actor, input));
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
