'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { setGoldSettings, setItemGold } from '@/lib/server/review/gold';

/** The study's gold rate and accuracy threshold (the use-case parses the form's strings). */
export async function setGoldSettingsAction(studyId: number, ratePct: string, alertBelowPct: string) {
  const res = await runAction((actor) => setGoldSettings(actor, studyId, { ratePct, alertBelowPct }));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

/** Sets or clears one item's gold labels (unit → label, '' to clear). */
export async function setItemGoldAction(studyId: number, itemId: number, labels: Record<string, string>) {
  const res = await runAction((actor) => setItemGold(actor, studyId, { itemId, labels }));
  revalidatePath(`/studies/${studyId}`);
  revalidatePath(`/studies/${studyId}/items/${itemId}`);
  return res;
}
