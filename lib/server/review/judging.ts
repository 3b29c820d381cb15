import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as pq from '@/db/queries/pairwise';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { blindItem, criteriaForItem } from '@/lib/kinds/pairwise/item-view';
import { judgmentDraftSchema, saveJudgmentDraftSchema, submitJudgmentSchema, type JudgmentDraft } from '@/lib/validation/judging';
import type { Actor } from '../actor';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import { toCanonical, toScreen } from './blinding';
import type { JudgeAssignmentDto } from './dto';
import { invalid } from '../errors';
import { submitAnnotation, type SubmitResult } from './submit';
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
 * Records a pairwise judgment: every applicable criterion must have a choice. Choices arrive as seen on screen
 * and are stored from reply a's side, with the on-screen choice kept. Idempotent by request id: the same
 * choices again answer `duplicate`, other choices under the same id are a conflict (`./submit`).
 */
export function submitJudgment(actor: Actor, input: unknown): SubmitResult {
  const { choices, ...request } = parseInput(submitJudgmentSchema, input);
  return submitAnnotation(actor, request, {
    content: () => ({ choices }),
    write: (db, a, study, _content, base) => {
      const item = JSON.parse(pq.itemRow(db, a.itemId)!.payload) as PairwiseItem;
      const criteria = criteriaForItem(study, item).map((c) => c.id);
      const missing = criteria.filter((c) => !choices[c]);
      const extra = Object.keys(choices).filter((c) => !criteria.includes(c));
      if (missing.length) throw invalid(`Choose for every criterion; missing: ${missing.join(', ')}.`, { choices: 'incomplete' });
      if (extra.length) throw invalid(`Not criteria of this item: ${extra.join(', ')}.`, { choices: 'unknown criterion' });
      const swapped = a.swapped === 1;
      const { id: annotationId, revision } = q.insertAnnotation(db, base);
      pq.insertLabels(
        db,
        annotationId,
        criteria.map((c) => ({ criterion: c, label: toCanonical(choices[c], swapped), screenChoice: choices[c] })),
      );
      return revision;
    },
  });
}

/** The draft an undone pairwise submission turns back into: its choices as the reviewer saw them. */
export function judgmentAsDraft(db: Db, annotationId: number, swapped: boolean): JudgmentDraft {
  return { choices: Object.fromEntries(pq.labelsOf(db, annotationId).map((l) => [l.criterion, toScreen(l.label, swapped)])) };
}
