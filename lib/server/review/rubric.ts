import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import * as studiesQ from '@/db/queries/studies';
import { rubricDraftSchema, saveRubricDraftSchema, submitRubricSchema, type RubricDraft } from '@/lib/validation/rubric-review';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import type { RubricAssignmentDto } from './dto';
import { codesOf, namesOf, rubricCatalog } from '@/lib/kinds/rubric/catalog';
import { blindRubricItem } from '@/lib/kinds/rubric/item-view';
import { remarksOf } from './item-actions';
import { submitAnnotation, type SubmitResult } from './submit';

// The catalog's name/code conversions and the blind item are the rubric kind's; review code imports them from here.
export { codesOf, dimensionDto, namesOf, rubricCatalog } from '@/lib/kinds/rubric/catalog';
export { blindRubricItem } from '@/lib/kinds/rubric/item-view';

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
