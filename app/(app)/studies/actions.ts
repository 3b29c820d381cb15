'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { runAction } from '@/lib/auth/handlers';
import type { CatalogError } from '@/lib/validation/rubric';
import { combineJudgeRuns } from '@/lib/server/judges/combine';
import { addReviewer, editStudy, replaceReviewer, setArchived, setDeadline } from '@/lib/server/studies/editing';
import { closeStudy, createStudy, openStudy, setGroundTruthRule, setStudyCriteria, setStudyMembers } from '@/lib/server/studies/studies';

export type FormState =
  | {
      error?: string;
      fieldErrors?: Record<string, string>;
      values?: Record<string, string>;
      catalogErrors?: CatalogError[];
      attempt?: number;
    }
  | undefined;

export async function createStudyAction(prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const { catalog, dimensionsText, ...rest } = values;
  // The dimensions of a kind that has them (the form shows their fields only for such a kind, components/kinds/
  // new-study.ts): a shipped catalog by name, or the JSON the lead pasted or loaded from a file. The kind's catalog
  // facet refuses dimensions for a kind without them.
  const dimensions = catalog === 'custom' ? (dimensionsText ?? '') : catalog;
  const res = await runAction((actor) =>
    createStudy(actor, {
      ...rest,
      dimensions,
      reviewersPerItem: rest.reviewersPerItem || undefined,
      seed: rest.seed || undefined,
      payRate: rest.payRate || 0,
    }),
  );
  if (!res.ok) {
    const catalogErrors = (res.details as { catalogErrors?: CatalogError[] } | undefined)?.catalogErrors;
    return {
      error: catalogErrors ? 'The dimensions catalog has problems; nothing was created.' : res.error,
      fieldErrors: res.fieldErrors,
      values,
      catalogErrors,
      // Numbers the failed attempts, so the form can remount its selects on what was submitted.
      attempt: (prev?.attempt ?? 0) + 1,
    };
  }
  revalidatePath('/studies');
  redirect(`/studies/${res.data.id}`);
}

export async function setMembersAction(studyId: number, input: { usernames: string[]; mode: string; adjudicator: string | null }) {
  const res = await runAction((actor) => setStudyMembers(actor, studyId, input));
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

/** Replaces a draft pairwise study's criteria with an uploaded catalog (JSON text). */
export async function setCriteriaAction(studyId: number, json: string) {
  const res = await runAction((actor) => {
    let catalog: unknown;
    try {
      catalog = JSON.parse(json);
    } catch (e) {
      return { ok: false as const, error: `The file is not valid JSON: ${(e as Error).message}` };
    }
    return { ok: true as const, study: setStudyCriteria(actor, studyId, catalog) };
  });
  revalidatePath(`/studies/${studyId}`);
  if (res.ok && !res.data.ok) return { ok: false as const, error: res.data.error };
  return res.ok ? { ok: true as const, count: res.data.study!.criteria.length } : res;
}

export async function setGroundTruthRuleAction(studyId: number, rule: string) {
  const res = await runAction((actor) => setGroundTruthRule(actor, studyId, rule));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

/** Combines judge runs of a study into a new run (`judge combine`); the study page then lists it with its recipe. */
export async function combineRunsAction(studyId: number, input: { runs: string[]; rule: string; name: string; missing: string }) {
  const res = await runAction((actor) => combineJudgeRuns(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function editStudyAction(studyId: number, input: { name?: string; guidelines?: string }) {
  const res = await runAction((actor) => editStudy(actor, studyId, input));
  revalidatePath(`/studies/${studyId}`);
  revalidatePath('/studies');
  return res;
}

export async function setDeadlineAction(studyId: number, deadline: string) {
  const res = await runAction((actor) => setDeadline(actor, studyId, { deadline }));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function addReviewerAction(studyId: number, username: string) {
  const res = await runAction((actor) => addReviewer(actor, studyId, { username }));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function replaceReviewerAction(studyId: number, from: string, to: string) {
  const res = await runAction((actor) => replaceReviewer(actor, studyId, { from, to }));
  revalidatePath(`/studies/${studyId}`);
  return res;
}

export async function setArchivedAction(studyId: number, archived: boolean) {
  const res = await runAction((actor) => setArchived(actor, studyId, archived));
  revalidatePath(`/studies/${studyId}`);
  revalidatePath('/studies');
  return res;
}
