import 'server-only';
import { getDb } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as rq from '@/db/queries/rubric-review';
import { rubricDraftSchema, saveRubricDraftSchema } from '@/lib/validation/rubric-review';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import type { RubricAssignmentDto } from './dto';
import { namesOf, rubricCatalog } from '@/lib/kinds/rubric/catalog';
import { blindRubricItem } from '@/lib/kinds/rubric/item-view';
import { remarksOf } from './item-actions';
import { submitAs, type SubmitResult } from './submit';

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
 * Records a rubric annotation (`./submit`, with the rubric review facet): a label on every dimension, each one of
 * its dimension's labels, and an optional note; other labels under the same request id are a conflict.
 */
export const submitRubric = (actor: Actor, input: unknown): SubmitResult => submitAs('rubric', actor, input);

export { rubricAsDraft } from '@/lib/kinds/rubric/review';
