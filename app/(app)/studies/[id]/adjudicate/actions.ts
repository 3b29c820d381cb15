'use server';

import { runAction } from '@/lib/auth/handlers';
import { getAdjudicationQueue, submitAdjudication } from '@/lib/server/review/adjudication';
import { submitRubricAdjudication } from '@/lib/server/review/rubric-adjudication';

/** Settles an item's disagreements and returns the adjudication queue as it is now. */
export async function submitAdjudicationAction(input: {
  studyId: number;
  itemId: number;
  requestId: string;
  choices: Record<string, string>;
  rationales: Record<string, string>;
}) {
  return runAction((actor) => {
    const result = submitAdjudication(actor, input);
    return { ...result, queue: getAdjudicationQueue(actor, input.studyId) };
  });
}

/** Settles a rubric item's disagreements and returns the adjudication queue as it is now. */
export async function submitRubricAdjudicationAction(input: {
  studyId: number;
  itemId: number;
  requestId: string;
  labels: Record<string, string>;
  rationales: Record<string, string>;
}) {
  return runAction((actor) => {
    const result = submitRubricAdjudication(actor, input);
    return { ...result, queue: getAdjudicationQueue(actor, input.studyId) };
  });
}
