'use server';

import { runAction } from '@/lib/auth/handlers';
import { getAdjudicationQueue, submitAdjudication } from '@/lib/server/review/adjudication';

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
