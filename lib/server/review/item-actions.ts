import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import { studyKind } from '@/lib/kinds/registry';
import * as rq from '@/db/queries/remarks';
import type { StudyRow } from '@/db/queries/studies';
import { commentSchema, flagSchema, historySchema, reopenSchema, skipSchema } from '@/lib/validation/review';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict } from '../errors';
import { parseInput } from '../parse';
import { creditActiveTime, openStudyForWorker, ownAssignment, studyForStaff, studyForWorker } from './access';
import type { FlaggedItemDto, RemarksDto, SubmissionHistoryDto } from './dto';

/*
 * What a reviewer can do with an item of any kind besides labelling it: skip it for now, flag it for the leads,
 * comment on it, and go back to what they submitted. Nothing here depends on the study's kind.
 */

/** The reviewer's own flag and comment on an assignment. */
export function remarksOf(db: Db, assignmentId: number): RemarksDto {
  const r = rq.findRemark(db, assignmentId);
  return { flagReason: r?.flagReason ?? null, comment: r?.comment ?? null };
}

/**
 * Puts a pending item at the end of the reviewer's queue; it comes back after the others. The position the screen
 * saw is part of the request: when the item is no longer there (a retry, a double press) nothing moves again.
 * The active time spent on it so far is credited, as a draft save would.
 */
export function skipAssignment(actor: Actor, input: unknown): { assignmentId: number; studyId: number; skipped: boolean } {
  const { assignmentId, queuePosition, activeMs } = parseInput(skipSchema, input);
  const db = getDb();
  return inTransaction(
    db,
    () => {
      const a = ownAssignment(db, actor, assignmentId);
      openStudyForWorker(db, actor, a.studyId);
      if (a.state !== 'pending') throw conflict('This item was already submitted; there is nothing to skip.');
      if (a.queuePosition !== queuePosition) return { assignmentId, studyId: a.studyId, skipped: false };
      const now = Date.now();
      creditActiveTime(db, a, activeMs, now);
      q.markSeen(db, a.id, now);
      q.setQueuePosition(db, a.id, q.lastQueuePosition(db, a.studyId, actor.id) + 1);
      audit(db, { userId: actor.id, action: 'item_skipped', studyId: a.studyId, objectId: a.id, detail: { from: queuePosition } });
      return { assignmentId, studyId: a.studyId, skipped: true };
    },
    'immediate',
  );
}

function changeRemarks(actor: Actor, assignmentId: number, change: (r: rq.RemarkRow, now: number) => rq.RemarkRow, action: string) {
  const db = getDb();
  return inTransaction(db, () => {
    const a = ownAssignment(db, actor, assignmentId);
    openStudyForWorker(db, actor, a.studyId);
    const now = Date.now();
    const before = rq.findRemark(db, a.id) ?? { assignmentId: a.id, flagReason: null, flaggedAt: null, comment: null, updatedAt: now };
    const after = change(before, now);
    if (after.flagReason !== before.flagReason || after.comment !== before.comment) {
      rq.putRemark(db, { ...after, updatedAt: now });
      audit(db, { userId: actor.id, action, studyId: a.studyId, objectId: a.id });
    }
    return remarksOf(db, a.id);
  });
}

/**
 * Flags one of the reviewer's items for the study's leads, with a reason, or clears the flag (`reason: null`).
 * Works before and after the item is submitted. Setting what is already set changes nothing (not even the time
 * of the flag), so a double click or a retry is harmless.
 */
export function setFlag(actor: Actor, input: unknown): RemarksDto {
  const { assignmentId, reason } = parseInput(flagSchema, input);
  return changeRemarks(
    actor,
    assignmentId,
    (r, now) =>
      reason === null
        ? { ...r, flagReason: null, flaggedAt: null }
        : { ...r, flagReason: reason, flaggedAt: r.flagReason === null ? now : r.flaggedAt },
    reason === null ? 'item_unflagged' : 'item_flagged',
  );
}

/** The reviewer's free comment on one of their items; an empty comment removes it. Idempotent as `setFlag`. */
export function setComment(actor: Actor, input: unknown): RemarksDto {
  const { assignmentId, comment } = parseInput(commentSchema, input);
  return changeRemarks(actor, assignmentId, (r) => ({ ...r, comment: comment === '' ? null : comment }), 'item_commented');
}

/** The study's flagged items with who flagged them and why, newest first: for leads and admins. */
export function getFlaggedItems(actor: Actor, studyId: number): FlaggedItemDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return rq.flaggedInStudy(db, studyId).map((r) => ({
    assignmentId: r.assignmentId,
    itemId: r.itemId,
    position: r.position,
    externalId: r.externalId,
    reviewer: r.displayName || r.username,
    reason: r.reason,
    flaggedAt: new Date(r.flaggedAt).toISOString(),
    comment: r.comment,
    submitted: r.state === 'submitted',
  }));
}

const HISTORY_PAGE = 50;

/** What the reviewer submitted in a study, newest first, searchable by item number or the problem's text. */
export function getSubmissionHistory(actor: Actor, input: unknown): SubmissionHistoryDto {
  const { studyId, search, limit = HISTORY_PAGE, page, offset = page ? (page - 1) * limit : 0 } = parseInput(historySchema, input);
  const db = getDb();
  const study = studyForWorker(db, actor, studyId);
  // A rubric reviewer knows an item by their own queue position, never its place in the file (docs/decisions/0013).
  const { itemNumber: numberBy, history } = studyKind(study.kind).review;
  const { rows, total } = q.submissionsOf(db, studyId, actor.id, { search: search || undefined, limit, offset, numberBy });
  return {
    studyId,
    studyName: study.name,
    kind: study.kind,
    textHeading: history.text,
    total,
    page: Math.floor(offset / limit) + 1,
    items: rows.map((r) => ({
      assignmentId: r.assignmentId,
      position: numberBy === 'queue' ? r.queuePosition : r.position,
      itemName: history.id ? r.externalId : null,
      problem: r.problem,
      submittedAt: new Date(r.submittedAt).toISOString(),
      revision: r.revision ?? 0,
    })),
  };
}

/**
 * Whether a reviewer may still take back a submitted assignment (by undo or from their history): the study is open,
 * and no adjudicator has ruled on the item, since a ruling settles the reviews it ruled on. Throws when not.
 */
export function assertStillEditable(db: Db, actor: Actor, a: q.AssignmentRow): StudyRow {
  const study = openStudyForWorker(db, actor, a.studyId);
  if (a.state !== 'submitted') throw conflict('This item is not submitted; it is already open for changes.');
  // Once an adjudicator has ruled on the item, the reviews it ruled on are settled.
  const adjudicated = studyKind(study.kind).adjudication?.ruled(db, a.itemId) ?? false;
  if (adjudicated) throw conflict('That item has been adjudicated; it can no longer be changed.');
  return study;
}

/** Whether `assertStillEditable` would let the reviewer change a submitted assignment now. */
export function isStillEditable(db: Db, actor: Actor, a: q.AssignmentRow): boolean {
  try {
    assertStillEditable(db, actor, a);
    return true;
  } catch {
    return false;
  }
}

/**
 * Gives a submitted assignment back to its reviewer as pending, its last submission as the draft (`asDraft`), the
 * way undo does: the annotation stays in the history, and submitting again writes a new revision.
 */
export function reopenAs(db: Db, actor: Actor, a: q.AssignmentRow, asDraft: (ann: q.AnnotationRow | undefined) => unknown, action: string) {
  const ann = q.latestAnnotation(db, a.id);
  const now = Date.now();
  q.markPending(db, a.id, now);
  q.upsertDraft(db, a.id, asDraft(ann), now);
  audit(db, { userId: actor.id, action, studyId: a.studyId, objectId: a.id, detail: { revision: ann?.revision } });
}

/**
 * Starts revising one of the reviewer's submitted items from their history, while it is still editable: it comes
 * first in their queue, with what they submitted as its draft, and it stays submitted meanwhile: its newest
 * revision goes on counting (progress, payouts, ground truth, exports) until the new revision is submitted, and
 * leaving the revision unfinished changes nothing. Starting again a revision under way (a double click, a retry,
 * a return from elsewhere) keeps its draft. An item that is pending again (undone) is only put first.
 */
export function reopenSubmission(
  actor: Actor,
  input: unknown,
  asDraft: (db: Db, study: StudyRow, a: q.AssignmentRow, ann: q.AnnotationRow | undefined) => unknown,
): { assignmentId: number; studyId: number } {
  const { assignmentId } = parseInput(reopenSchema, input);
  const db = getDb();
  return inTransaction(
    db,
    () => {
      const a = ownAssignment(db, actor, assignmentId);
      if (a.state === 'submitted') {
        const study = assertStillEditable(db, actor, a);
        if (a.revisingSince === null) {
          const ann = q.latestAnnotation(db, a.id);
          const now = Date.now();
          q.markRevising(db, a.id, now);
          q.upsertDraft(db, a.id, asDraft(db, study, a, ann), now);
          audit(db, {
            userId: actor.id,
            action: 'revision_started',
            studyId: a.studyId,
            objectId: a.id,
            detail: { revision: ann?.revision },
          });
        }
        return { assignmentId, studyId: a.studyId };
      }
      openStudyForWorker(db, actor, a.studyId);
      const first = q.firstPendingPosition(db, a.studyId, actor.id);
      if (first !== null && first < a.queuePosition) q.setQueuePosition(db, a.id, first - 1);
      return { assignmentId, studyId: a.studyId };
    },
    'immediate',
  );
}

/**
 * Gives up a revision under way: its draft is dropped and the submission stays as it was (it never stopped
 * counting). Giving up one that is not under way (a retry, or it was submitted meanwhile) changes nothing.
 */
export function abandonRevision(actor: Actor, input: unknown): { assignmentId: number; studyId: number } {
  const { assignmentId } = parseInput(reopenSchema, input);
  const db = getDb();
  return inTransaction(
    db,
    () => {
      const a = ownAssignment(db, actor, assignmentId);
      if (a.revisingSince !== null) {
        q.endRevising(db, a.id);
        q.deleteDraft(db, a.id);
        audit(db, { userId: actor.id, action: 'revision_abandoned', studyId: a.studyId, objectId: a.id });
      }
      return { assignmentId, studyId: a.studyId };
    },
    'immediate',
  );
}
