import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import * as studiesQ from '@/db/queries/studies';
import type { RubricDimension, RubricItem } from '@/lib/validation/rubric';
import { rubricDraftSchema, saveRubricDraftSchema, submitRubricSchema, type RubricDraft } from '@/lib/validation/rubric-review';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import type { BlindRubricItemDto, RubricAssignmentDto, RubricDimensionDto } from './dto';
import { itemRefOf } from './item-refs';
import { remarksOf } from './item-actions';
import { submitAnnotation, type SubmitResult } from './submit';

/** A rubric study's dimensions, in catalog order (fixed once the study exists: a label's code is its index). */
export function rubricCatalog(study: Pick<StudyRow, 'criteria'>): RubricDimension[] {
  return (study.criteria ?? []) as RubricDimension[];
}

export const dimensionDto = (d: RubricDimension): RubricDimensionDto => ({
  id: d.id,
  name: d.name,
  description: d.description ?? null,
  labels: [...d.labels],
});

/**
 * The item as a reviewer or adjudicator may see it, field by field: no source, no external id, no group key, and
 * nothing numbered in file order (docs/decisions/0013): the item goes by its adjudicator's number (`itemRefOf`),
 * and `shownAs` is the number the screen shows, the person's own place for it.
 */
export function blindRubricItem(db: Db, study: StudyRow, itemId: number, shownAs: number): BlindRubricItemDto {
  const row = rq.rubricItemRow(db, itemId)!;
  const item = JSON.parse(row.payload) as RubricItem;
  return {
    itemId: itemRefOf(study, itemId),
    position: shownAs,
    problem: item.problem ?? null,
    history: (item.history ?? []).map((t) => ({ role: t.role, text: t.text })),
    reply: item.reply ? item.reply.text : null,
    dimensions: rubricCatalog(study).map(dimensionDto),
  };
}

/** Label codes → `{dimension id: label name}`, in catalog order. */
export function namesOf(catalog: readonly RubricDimension[], codes: readonly rq.RubricCode[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of codes) {
    const d = catalog[c.dimension];
    if (d && d.labels[c.label] !== undefined) out[d.id] = d.labels[c.label];
  }
  return out;
}

/**
 * `{dimension id: label name}` → codes, every name checked against the catalog. Unknown dimensions and labels are
 * refused with the allowed ones named; with `complete`, every dimension must have a label.
 */
export function codesOf(catalog: readonly RubricDimension[], labels: Record<string, string>, complete: boolean): rq.RubricCode[] {
  const fieldErrors: Record<string, string> = {};
  const codes: rq.RubricCode[] = [];
  const ids = new Set(catalog.map((d) => d.id));
  for (const key of Object.keys(labels)) {
    if (!ids.has(key)) fieldErrors[key] = `is not a dimension of this study (${catalog.map((d) => d.id).join(', ')})`;
  }
  catalog.forEach((d, dimension) => {
    const name = labels[d.id];
    if (name === undefined) {
      if (complete) fieldErrors[d.id] = 'has no label yet';
      return;
    }
    const label = d.labels.indexOf(name.trim());
    if (label < 0) fieldErrors[d.id] = `"${name}" is not one of ${d.labels.join(', ')}`;
    else codes.push({ dimension, label });
  });
  if (Object.keys(fieldErrors).length) {
    const missing = Object.entries(fieldErrors).filter(([, m]) => m === 'has no label yet');
    const message =
      missing.length && missing.length === Object.keys(fieldErrors).length
        ? `Choose a label on every dimension; missing: ${missing.map(([k]) => k).join(', ')}.`
        : `Labels not accepted: ${Object.entries(fieldErrors)
            .map(([k, m]) => `${k} ${m}`)
            .join('; ')}.`;
    throw invalid(message, fieldErrors);
  }
  return codes;
}

export function getRubricAssignment(actor: Actor, assignmentId: number): RubricAssignmentDto {
  const db = getDb();
  const a = ownAssignment(db, actor, assignmentId);
  const study = studyForWorker(db, actor, a.studyId);
  serveAssignment(db, a);
  const catalog = rubricCatalog(study);
  const row = rq.rubricItemRow(db, a.itemId)!;
  const draft = q.findDraft(db, a.id);
  const latest = a.state === 'submitted' ? q.latestAnnotation(db, a.id) : undefined;
  const groupIds = row.groupKey !== null ? rq.groupAssignmentIds(db, a.studyId, actor.id, row.groupKey) : [];
  return {
    kind: 'rubric',
    // "Item N" is the reviewer's own queue position, drawn per reviewer from the seed.
    ...blindRubricItem(db, study, a.itemId, a.queuePosition),
    assignmentId: a.id,
    studyId: a.studyId,
    queuePosition: a.queuePosition,
    state: a.state,
    group: groupIds.length ? { index: groupIds.indexOf(a.id) + 1, count: groupIds.length, anchor: groupIds[0] } : null,
    draft: draft ? rubricDraftSchema.parse(draft) : null,
    submitted: latest ? { labels: namesOf(catalog, rq.rubricLabelsOf(db, latest.id)), note: latest.note } : null,
    activeMs: a.activeMs,
    remarks: remarksOf(db, a.id),
  };
}

export function saveRubricDraft(actor: Actor, input: unknown) {
  const { assignmentId, draft, activeMs } = parseInput(saveRubricDraftSchema, input);
  return savePendingDraft(getDb(), actor, assignmentId, draft, activeMs);
}

/**
 * Records a rubric annotation through the shared skeleton (`./submit`): a label on every dimension, each one of its
 * dimension's labels, and an optional note. What is hashed for the request id is the labels in catalog order and
 * the trimmed note, so a retry matches however the client ordered its keys; other labels under the same request id
 * are a conflict.
 */
export function submitRubric(actor: Actor, input: unknown): SubmitResult {
  const { labels, note, ...request } = parseInput(submitRubricSchema, input);
  return submitAnnotation(actor, request, {
    content: (db, a) => {
      const study = studiesQ.findStudy(db, a.studyId)!;
      const codes = codesOf(rubricCatalog(study), labels, true);
      return { labels: codes.map((c) => [c.dimension, c.label]), note: note?.trim() || null };
    },
    write: (db, _a, _study, content, base) => {
      const { id, revision } = q.insertAnnotation(db, { ...base, note: content.note });
      rq.insertRubricLabels(
        db,
        id,
        content.labels.map(([dimension, label]) => ({ dimension, label })),
      );
      return revision;
    },
  });
}

/** The draft an undone rubric submission turns back into: its labels and note. */
export function rubricAsDraft(db: Db, study: StudyRow, annotation: q.AnnotationRow | undefined): RubricDraft {
  if (!annotation) return { labels: {} };
  return {
    labels: namesOf(rubricCatalog(study), rq.rubricLabelsOf(db, annotation.id)),
    ...(annotation.note ? { note: annotation.note } : {}),
  };
}
