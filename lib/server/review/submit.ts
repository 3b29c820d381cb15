import 'server-only';
import { getDb, inTransaction } from '@/db/client';
import * as q from '@/db/queries/assignments';
import type { AnnotationBase, SubmissionKind } from '@/lib/kinds/facets/review';
import { studyKind } from '@/lib/kinds/registry';
import type { StudyKind } from '@/lib/validation/labels';
import type { Actor } from '../actor';
import { conflict } from '../errors';
import { creditActiveTime, openStudyForWorker, ownAssignment, takesWork } from './access';
import { replayedAnnotation, requestHash } from './idempotency';
import { assertStillEditable } from './item-actions';

export type { AnnotationBase, SubmissionKind };

export type SubmitResult = { assignmentId: number; revision: number; duplicate: boolean };

/**
 * The skeleton every submission follows, in one immediate transaction (two tabs or a retry racing the first
 * request cannot both write): the request id answers a replay with the first result or a conflict
 * (`./idempotency`); otherwise the study must be open and the assignment still pending, or under revision and still
 * editable (`assertStillEditable`), the kind writes the annotation, and the assignment is finished: active time
 * credited, seen and submitted (a revision: submitted now, the revising over), its draft dropped. A revision is
 * written once: the first submission of it ends the revising, so a second one (another tab) is refused.
 */
export function submitAnnotation<C extends object>(
  actor: Actor,
  request: { assignmentId: number; requestId: string; activeMs: number },
  kind: SubmissionKind<C>,
): SubmitResult {
  const { assignmentId, requestId, activeMs } = request;
  const db = getDb();
  return inTransaction(
    db,
    () => {
      const a = ownAssignment(db, actor, assignmentId);
      const content = kind.content(db, a);
      const hash = requestHash({ assignmentId, ...content });
      const prior = q.findAnnotationByRequest(db, actor.id, requestId);
      if (prior) return replayedAnnotation(db, prior, assignmentId, hash);
      const study = openStudyForWorker(db, actor, a.studyId);
      if (!takesWork(a)) throw conflict('This item was already submitted.');
      // A revision replaces a submission only while the item may still change (no ruling on it yet, as for undo).
      if (a.state !== 'pending') assertStillEditable(db, actor, a);
      const revision = kind.write(db, a, study, content, { assignmentId, requestId, requestHash: hash, createdBy: actor.id });
      const now = Date.now();
      creditActiveTime(db, a, activeMs, now);
      q.markSeen(db, a.id, now);
      if (a.state === 'pending') q.markSubmitted(db, a.id, now);
      else q.markRevised(db, a.id, now);
      q.deleteDraft(db, a.id);
      return { assignmentId, revision, duplicate: false };
    },
    'immediate',
  );
}

/**
 * Submits an assignment of a study of `kind`: the kind's review facet parses the submission and says what is
 * stored (`lib/kinds/<kind>/review.ts`); the rest is `submitAnnotation`'s.
 */
export function submitAs(kind: StudyKind, actor: Actor, input: unknown): SubmitResult {
  const { request, submission } = studyKind(kind).review.parseSubmission(input);
  return submitAnnotation(actor, request, submission);
}
