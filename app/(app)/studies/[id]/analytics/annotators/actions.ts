'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { excludeAnnotator, includeAnnotator } from '@/lib/server/analytics/annotators-exclusions';

/** Leaves an annotator's labels out of the study's ground truth and reports (the use-case checks who asks). */
export async function excludeAnnotatorAction(studyId: number, userId: number) {
  const res = await runAction((actor) => excludeAnnotator(actor, studyId, userId));
  revalidatePath(`/studies/${studyId}`, 'layout');
  return res;
}

/** Counts an excluded annotator's labels again. */
export async function includeAnnotatorAction(studyId: number, userId: number) {
  const res = await runAction((actor) => includeAnnotator(actor, studyId, userId));
  revalidatePath(`/studies/${studyId}`, 'layout');
  return res;
}
