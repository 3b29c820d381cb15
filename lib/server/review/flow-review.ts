import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import type { StudyRow } from '@/db/queries/studies';
import { undoSchema } from '@/lib/validation/review';
import type { Actor } from '../actor';
import { openStudyForWorker, ownAssignment, serveAssignment, studyForWorker } from './access';
import { conflict } from '../errors';
import { submitAs, type SubmitResult } from './submit';
import { flowReview } from '@/lib/kinds/flow/review';
import type { AssignmentView } from '@/lib/kinds/facets/review';
import * as studiesQ from '@/db/queries/studies';
import { studyKind } from '@/lib/kinds/registry';
import { assertStillEditable, isStillEditable, remarksOf, reopenAs, reopenSubmission } from './item-actions';
import type { FlowAssignmentDto, MySubmissionDto, QueueDto, QueueStateDto } from './dto';
import { parseInput } from '../parse';

const UPCOMING = 8;

export function getQueue(actor: Actor, studyId: number): QueueDto {
  const db = getDb();
  const study = studyForWorker(db, actor, studyId);
  return { studyId, studyName: study.name, kind: study.kind, guidelines: study.guidelines, ...queueState(db, actor, study) };
}

/**
 * The reviewer's queue: the submissions they are revising first (those still editable: a revision the study's
 * closing or a ruling has overtaken can no longer be submitted, so it is not offered), then their pending items.
 * The counts are the submitted assignments, those under revision among them.
 */
function queueState(db: Db, actor: Actor, study: StudyRow): QueueStateDto {
  const counts = q.queueCounts(db, study.id, actor.id);
  const revising = q.revising(db, study.id, actor.id).filter((a) => isStillEditable(db, actor, a));
  const pending = q.nextPending(db, study.id, actor.id, UPCOMING + 1);
  const [currentId = null, ...upcomingIds] = [...revising.map((a) => a.id), ...pending].slice(0, UPCOMING + 1);
  const last = study.status === 'open' ? q.lastSubmitted(db, study.id, actor.id) : undefined;
  return {
    status: study.status,
    total: counts.total,
    submitted: counts.submitted,
    currentId,
    nextId: upcomingIds[0] ?? null,
    upcomingIds,
    undoableId: last?.id ?? null,
    revising: revising.map((a) => ({
      assignmentId: a.id,
      submittedAt: new Date(a.submittedAt!).toISOString(),
      revision: q.latestAnnotation(db, a.id)?.revision ?? 0,
    })),
  };
}

/** An assignment of the actor's, in the shape its study kind needs (the kind's review facet builds it). */
export function getAssignmentView(actor: Actor, assignmentId: number): AssignmentView {
  const db = getDb();
  const a = ownAssignment(db, actor, assignmentId);
  const study = studyForWorker(db, actor, a.studyId);
  serveAssignment(db, a);
  return studyKind(study.kind).review.view(db, study, a, { actorId: actor.id, remarks: remarksOf(db, a.id) });
}

/** A flow review assignment of the actor's (its study is not checked for the worker: `getAssignmentView` does). */
export function getFlowAssignment(actor: Actor, assignmentId: number): FlowAssignmentDto {
  const db = getDb();
  const a = ownAssignment(db, actor, assignmentId);
  serveAssignment(db, a);
  const { kind: _kind, ...view } = flowReview.view(db, studiesQ.findStudy(db, a.studyId)!, a, {
    actorId: actor.id,
    remarks: remarksOf(db, a.id),
  }) as FlowAssignmentDto & { kind: 'flow_review' };
  return view;
}

export { parseFlowDecision } from '@/lib/kinds/flow/review';

/**
 * Records a review decision (`./submit`, with the flow review facet), checked against the flow's steps. Idempotent:
 * the same requestId with the same decision returns the first result without writing again, with another decision
 * it is a conflict; an assignment that is already submitted is never annotated twice.
 */
export const submitFlowReview = (actor: Actor, input: unknown): SubmitResult => submitAs('flow_review', actor, input);

/** The draft a submission turns back into when it is taken back (undo, or revising it from the history). */
export function draftOfSubmission(db: Db, study: StudyRow, a: q.AssignmentRow, ann: q.AnnotationRow | undefined): unknown {
  return studyKind(study.kind).review.draftOf(db, study, a, ann);
}

/**
 * Takes back the reviewer's most recent submission in a study: the assignment is pending again, with the
 * submitted decision as its draft (a revision of it under way ends, its changes with it). The annotation itself
 * stays in the history.
 */
export function undoLastSubmission(actor: Actor, input: unknown) {
  const { studyId } = parseInput(undoSchema, input);
  const db = getDb();
  return inTransaction(db, () => {
    const study = openStudyForWorker(db, actor, studyId);
    const last = q.lastSubmitted(db, studyId, actor.id);
    if (!last) throw conflict('There is no submission to undo.');
    assertStillEditable(db, actor, last);
    reopenAs(db, actor, last, (ann) => draftOfSubmission(db, study, last, ann), 'submission_undone');
    return { assignmentId: last.id };
  });
}

/**
 * Starts revising a submitted item from the reviewer's history (`./item-actions`), whatever its kind: it comes first
 * in their queue and keeps counting as submitted until the new revision is.
 */
export function reviseSubmission(actor: Actor, input: unknown) {
  return reopenSubmission(actor, input, draftOfSubmission);
}

/**
 * One of the reviewer's submitted items as their history opens it: the item as they saw it with their labels, and
 * whether they may still revise it (the rule undo follows). Another reviewer's assignment is "not found".
 */
export function getMySubmission(actor: Actor, assignmentId: number): MySubmissionDto {
  const db = getDb();
  const a = ownAssignment(db, actor, assignmentId);
  const study = studyForWorker(db, actor, a.studyId);
  if (a.state !== 'submitted') throw conflict('This item is not submitted; it is waiting in your queue.');
  const latest = q.latestAnnotation(db, a.id);
  return {
    studyId: a.studyId,
    studyName: study.name,
    assignmentId: a.id,
    submittedAt: new Date(a.submittedAt!).toISOString(),
    revision: latest?.revision ?? 0,
    editable: isStillEditable(db, actor, a),
    view: getAssignmentView(actor, assignmentId),
  };
}
