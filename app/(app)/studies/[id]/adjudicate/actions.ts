'use server';

import { runAction } from '@/lib/auth/handlers';
import type { Actor } from '@/lib/server/actor';
import { getAdjudicationQueue, submitAdjudication, submitRubricAdjudication } from '@/lib/server/review/adjudication';

/** Settles an item with `settle` and returns its outcome with the adjudication queue as it is now. */
function settleThenQueue<R extends object>(settle: (actor: Actor, input: unknown) => R, input: { studyId: number }) {
  return runAction((actor) => {
    const result = settle(actor, input);
    return { ...result, queue: getAdjudicationQueue(actor, input.studyId) };
  });
}

/** Settles an item's disagreements and returns the adjudication queue as it is now. */
export async function submitAdjudicationAction(input: {
  studyId: number;
  itemId: number;
  requestId: string;
  choices: Record<string, string>;
  rationales: Record<string, string>;
}) {
  return settleThenQueue(submitAdjudication, input);
}

/** Settles a rubric item's disagreements and returns the adjudication queue as it is now. */
export async function submitRubricAdjudicationAction(input: {
  studyId: number;
  itemId: number;
  requestId: string;
  labels: Record<string, string>;
  rationales: Record<string, string>;
}) {
  return settleThenQueue(submitRubricAdjudication, input);
}
