'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { openHybridQueue } from '@/lib/server/analytics/hybrid-queue';
import { openActiveQueue } from '@/lib/server/analytics/review-queue-active';

/**
 * Opens the review queue a hybrid plan calls for, on a study of any kind with one (a rubric study also reads
 * `lenient`, `sample` and `perTutor`).
 */
export async function openHybridQueueAction(
  studyId: number,
  input: {
    judge: string;
    criterion: string;
    target: number;
    usernames: string[];
    plan?: 'pado' | 'guaranteed';
    epsilon?: number;
    delta?: number;
    lenient?: boolean;
    perTutor?: boolean;
  },
) {
  const res = await runAction((actor) => openHybridQueue(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

/** Opens a review queue in active order (issue 28): the items drawn by the judge's uncertainty, the draw stored. */
export async function openActiveQueueAction(
  studyId: number,
  input: { judge: string; criterion: string; source: string; secondJudge?: string; budget: string; tau: string; usernames: string[] },
) {
  const res = await runAction((actor) => openActiveQueue(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  return res;
}
