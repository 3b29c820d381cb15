import 'server-only';
import { getDb } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as pq from '@/db/queries/pairwise';
import { blindItem } from '@/lib/kinds/pairwise/item-view';
import { judgmentDraftSchema, saveJudgmentDraftSchema } from '@/lib/validation/judging';
import type { Actor } from '../actor';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import { toScreen } from './blinding';
import type { JudgeAssignmentDto } from './dto';
import { submitAs, type SubmitResult } from './submit';
import { remarksOf } from './item-actions';
import { parseInput } from '../parse';

// The item as the screen shows it is the pairwise kind's; judges and imports still ask for the criteria here.
export { blindItem, criteriaForItem } from '@/lib/kinds/pairwise/item-view';

export function getJudgeAssignment(actor: Actor, assignmentId: number): JudgeAssignmentDto {
  const db = getDb();
  const a = ownAssignment(db, actor, assignmentId);
  const study = studyForWorker(db, actor, a.studyId);
  serveAssignment(db, a);
  const swapped = a.swapped === 1;
  const draft = q.findDraft(db, a.id);
  const latest = a.state === 'submitted' ? q.latestAnnotation(db, a.id) : undefined;
  return {
    kind: 'pairwise',
    ...blindItem(study, a.itemId, swapped),
    assignmentId: a.id,
    studyId: a.studyId,
    queuePosition: a.queuePosition,
    state: a.state,
    draft: draft ? judgmentDraftSchema.parse(draft) : null,
    submitted: latest ? Object.fromEntries(pq.labelsOf(db, latest.id).map((l) => [l.criterion, toScreen(l.label, swapped)])) : null,
    activeMs: a.activeMs,
    remarks: remarksOf(db, a.id),
  };
}

export function saveJudgmentDraft(actor: Actor, input: unknown) {
  const { assignmentId, draft, activeMs } = parseInput(saveJudgmentDraftSchema, input);
  return savePendingDraft(getDb(), actor, assignmentId, draft, activeMs);
}

/**
 * Records a pairwise judgment (`./submit`, with the pairwise review facet): every applicable criterion must have a
 * choice. Idempotent by request id: the same choices again answer `duplicate`, other choices under the same id are
 * a conflict.
 */
export const submitJudgment = (actor: Actor, input: unknown): SubmitResult => submitAs('pairwise', actor, input);

export { judgmentAsDraft } from '@/lib/kinds/pairwise/review';
