'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { runAction } from '@/lib/auth/handlers';
import { closeStudy, createStudy, openStudy, setStudyMembers } from '@/lib/server/studies';

export type FormState = { error?: string; fieldErrors?: Record<string, string>; values?: Record<string, string> } | undefined;

export async function createStudyAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const res = await runAction((actor) =>
    createStudy(actor, { ...values, reviewersPerItem: values.reviewersPerItem || undefined, seed: values.seed || undefined, payRate: values.payRate || 0 }),
  );
  if (!res.ok) return { error: res.error, fieldErrors: res.fieldErrors, values };
  revalidatePath('/studies');
  redirect(`/studies/${res.data.id}`);
}

export async function setMembersAction(studyId: number, usernames: string[]) {
  const res = await runAction((actor) => setStudyMembers(actor, studyId, { usernames }));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function openStudyAction(studyId: number) {
  const res = await runAction((actor) => openStudy(actor, studyId));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function closeStudyAction(studyId: number) {
  const res = await runAction((actor) => closeStudy(actor, studyId));
  revalidatePath(`/studies/${studyId}`);
  return res;
}
