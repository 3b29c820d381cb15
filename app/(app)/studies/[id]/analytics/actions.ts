'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { openHybridQueue } from '@/lib/server/analytics/hybrid-queue';
import { openActiveQueue } from '@/lib/server/analytics/review-queue-active';
import { openRubricHybridQueue } from '@/lib/server/analytics/rubric-hybrid-queue';

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
  },
) {
  const res = await runAction((actor) => openHybridQueue(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function openRubricHybridQueueAction(
  studyId: number,
  input: {
    judge: string;
    criterion: string;
    target: number;
    lenient: boolean;
    perTutor: boolean;
    usernames: string[];
    plan?: 'pado' | 'guaranteed';
    epsilon?: number;
    delta?: number;
  },
) {
  const res = await runAction((actor) => openRubricHybridQueue(actor, studyId, input));
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
