import 'server-only';
import { inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as studiesQ from '@/db/queries/studies';
import { isStaff, type Actor } from './actor';
import { conflict, forbidden, notFound } from './errors';

/** Leads and admins manage every study. */
export function studyForStaff(db: Db, actor: Actor, studyId: number) {
  if (!isStaff(actor)) throw forbidden('Only leads and admins can manage studies.');
  const study = studiesQ.findStudy(db, studyId);
  if (!study) throw notFound('That study');
  return study;
}

/**
 * A study the actor works in: staff, a member, or its adjudicator. Others get "not found" so that ids of
 * studies they are not part of reveal nothing.
 */
export function studyForWorker(db: Db, actor: Actor, studyId: number) {
  const study = studiesQ.findStudy(db, studyId);
  if (!study) throw notFound('That study');
  if (isStaff(actor) || study.adjudicatorId === actor.id || studiesQ.isMember(db, studyId, actor.id)) return study;
  throw notFound('That study');
}

/** An assignment of the actor's own; anyone else's is "not found", never "forbidden", so ids leak nothing. */
export function ownAssignment(db: Db, actor: Actor, assignmentId: number) {
  const a = assignmentsQ.findAssignment(db, assignmentId);
  if (!a || a.userId !== actor.id) throw notFound('That assignment');
  return a;
}

/** A study the actor works in that is open for changes. */
export function openStudyForWorker(db: Db, actor: Actor, studyId: number) {
  const study = studyForWorker(db, actor, studyId);
  if (study.status !== 'open') throw conflict(`The study is ${study.status}; nothing can be changed.`);
  return study;
}

/** Saves the draft of one of the actor's pending assignments with the active time reported so far. */
export function savePendingDraft(db: Db, actor: Actor, assignmentId: number, draft: unknown, activeMs: number) {
  inTransaction(db, () => {
    const a = ownAssignment(db, actor, assignmentId);
    openStudyForWorker(db, actor, a.studyId);
    if (a.state !== 'pending') throw conflict('This item was already submitted.');
    const now = Date.now();
    assignmentsQ.upsertDraft(db, a.id, draft, now);
    assignmentsQ.addActiveTime(db, a.id, activeMs);
    assignmentsQ.markSeen(db, a.id, now);
  });
  return { saved: true as const };
}
