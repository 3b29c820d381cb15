import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import { applicableCriteria, type Criterion, type PairwiseItem } from '@/lib/validation/pairwise';
import { judgmentDraftSchema, saveJudgmentDraftSchema, submitJudgmentSchema, type JudgmentDraft } from '@/lib/validation/judging';
import type { Actor } from '../actor';
import { ownAssignment, savePendingDraft, serveAssignment, studyForWorker } from './access';
import { toCanonical, toScreen } from './blinding';
import type { BlindItemDto, CriterionDto, JudgeAssignmentDto } from './dto';
import { invalid } from '../errors';
import { submitAnnotation, type SubmitResult } from './submit';
import { remarksOf } from './item-actions';
import { parseInput } from '../parse';

const OVERALL_CRITERION: CriterionDto = {
  id: OVERALL,
  name: 'Overall',
  description: 'All things considered, which response is the better next turn for this student?',
  aspects: [],
  level: 'overall',
};

/** The criteria an item is judged on, in order: its general and principle criteria, then overall. */
export function criteriaForItem(study: Pick<StudyRow, 'criteria'>, item: Pick<PairwiseItem, 'principles'>): CriterionDto[] {
  const catalog = (study.criteria ?? []) as Criterion[];
  const byId = new Map(catalog.map((c) => [c.id, c]));
  return applicableCriteria(catalog, item.principles).map((id) => {
    if (id === OVERALL) return OVERALL_CRITERION;
    const c = byId.get(id)!;
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      aspects: c.aspects,
      level: c.level,
      ...(c.principle ? { principle: c.principle } : {}),
    };
  });
}

export function blindItem(study: StudyRow, itemId: number, swapped: boolean): BlindItemDto {
  const row = pq.itemRow(getDb(), itemId)!;
  const item = JSON.parse(row.payload) as PairwiseItem;
  return {
    itemId,
    position: row.position,
    problem: item.problem,
    instructions: item.instructions ?? null,
    principles: item.principles ?? [],
    history: item.history ?? [],
    responses: swapped ? [item.b.text, item.a.text] : [item.a.text, item.b.text],
    criteria: criteriaForItem(study, item),
  };
}

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
