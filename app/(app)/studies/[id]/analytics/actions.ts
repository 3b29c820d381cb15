'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { openHybridQueue } from '@/lib/server/analytics/hybrid-queue';

export async function openHybridQueueAction(studyId: number, input: { judge: string; criterion: string; target: number; usernames: string[] }) {
  const res = await runAction((actor) => openHybridQueue(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  return res;
}
