import type { Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import * as studiesQ from '@/db/queries/studies';
import { parseInput } from '@/lib/server/parse';
import { rubricDraftSchema, submitRubricSchema, type RubricDraft } from './schemas';
import { defineSubmission, type ReviewFacet } from '../facets/review';
import { codesOf, namesOf, rubricCatalog } from './catalog';
import { blindRubricItem } from './item-view';

/** The draft an undone rubric submission turns back into: its labels and note. */
export function rubricAsDraft(db: Db, study: StudyRow, annotation: q.AnnotationRow | undefined): RubricDraft {
  if (!annotation) return { labels: {} };
  return {
    labels: namesOf(rubricCatalog(study), rq.rubricLabelsOf(db, annotation.id)),
    ...(annotation.note ? { note: annotation.note } : {}),
  };
}

/**
 * Rubric labels: one on every dimension, each one of its dimension's labels, and an optional note. What is hashed
 * for the request id is the labels in catalog order and the trimmed note, so a retry matches however the client
 * ordered its keys. A reviewer knows an item by their own queue position (docs/decisions/0013).
 */
export const rubricReview: ReviewFacet = {
  itemNumber: 'queue',
  draftSchema: rubricDraftSchema,
  history: { id: false, text: 'Reply' },
  parseSubmission(input) {
    const { labels, note, ...request } = parseInput(submitRubricSchema, input);
    return {
      request,
      submission: defineSubmission({
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
      }),
    };
  },
  view: (db, study, a, { actorId, remarks }) => {
    const catalog = rubricCatalog(study);
    const row = rq.rubricItemRow(db, a.itemId)!;
    const draft = q.findDraft(db, a.id);
    const latest = a.state === 'submitted' ? q.latestAnnotation(db, a.id) : undefined;
    const groupIds = row.groupKey !== null ? rq.groupAssignmentIds(db, a.studyId, actorId, row.groupKey) : [];
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
      remarks,
    };
  },
  draftOf: (db, study, _a, annotation) => rubricAsDraft(db, study, annotation),
};
