import 'server-only';
import { inTransaction, withoutWaitingForDisk, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import type { AssignmentRow } from '@/db/queries/assignments';
import * as studiesQ from '@/db/queries/studies';
import { isStaff, type Actor } from '../actor';
import { kindName } from '@/lib/kinds/names';
import type { StudyKind } from '@/lib/validation/labels';
import { conflict, forbidden, invalid, notFound } from '../errors';

/** Leads and admins manage every study. */
export function studyForStaff(db: Db, actor: Actor, studyId: number) {
  if (!isStaff(actor)) throw forbidden('Only leads and admins can manage studies.');
  const study = studiesQ.findStudy(db, studyId);
  if (!study) throw notFound('That study');
  return study;
}

/**
 * Whether a study is of the kind a use-case written for one kind expects ('any': a use-case that asks the kind).
 * The one comparison of a study's kind behind the access checks of such use-cases (this one and the adjudicator's).
 */
export const isOfKind = (study: studiesQ.StudyRow, kind: StudyKind | 'any'): boolean => kind === 'any' || study.kind === kind;

/**
 * A study for a staff use-case written for one kind of study (its item list, its item page, its export): the other
 * kinds are refused in words, naming both kinds, or (`notFound`) as "not found" where the object is one that only
 * that kind has. This is the one place such a use-case's kind check is written.
 */
export function staffStudyOfKind(
  db: Db,
  actor: Actor,
  studyId: number,
  kind: StudyKind,
  what: string,
  refuse: 'invalid' | 'notFound' = 'invalid',
) {
  const study = studyForStaff(db, actor, studyId);
  if (isOfKind(study, kind)) return study;
  if (refuse === 'notFound') throw notFound(what);
  throw invalid(`${what} is for ${kindName(kind).toLowerCase()} studies; this one is a ${kindName(study.kind).toLowerCase()} study.`);
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

/** At most this much active time is credited by one report, so a tab left open and stuck cannot inflate it. */
const MAX_CREDIT_PER_REPORT_MS = 15 * 60 * 1000;

/**
 * Credits the active time a client reports for a pending assignment (its running total). The client's figure is
 * not trusted beyond the wall clock: what is added is at most the time since the item was served to its reviewer
 * (or given back by an undo), less what was credited already, and never counts time from before the reviewer's
 * previous submission in the study (the screen prefetches items ahead of the one being worked on). Each credit
 * moves `credited_until` on by what it added, so however often drafts are saved and pages reloaded, the active
 * time of an assignment never adds up to more than the wall time its reviewer had it. Payouts and throughput
 * rest on this figure.
 */
export function creditActiveTime(db: Db, a: AssignmentRow, reportedTotalMs: number, now: number) {
  const previousSubmit = assignmentsQ.lastSubmitted(db, a.studyId, a.userId)?.submittedAt ?? 0;
  // Never served (a client that submits without showing the item): the clock starts now and nothing is credited.
  const since = Math.max(a.creditedUntil ?? now, previousSubmit);
  const claimed = Math.floor(reportedTotalMs) - a.activeMs;
  const credit = Math.max(0, Math.min(claimed, MAX_CREDIT_PER_REPORT_MS, now - since));
  assignmentsQ.setActiveTime(db, a.id, a.activeMs + credit, since + credit);
}

/**
 * Whether an assignment takes work from its reviewer (a draft, a submission): a pending one, or a submitted one they
 * are revising, whose submission counts until the revision is submitted.
 */
export function takesWork(a: AssignmentRow): boolean {
  return a.state === 'pending' || a.revisingSince !== null;
}

/** Saves the draft of one of the actor's pending assignments (or of a revision under way) with the active time reported so far. */
export function savePendingDraft(db: Db, actor: Actor, assignmentId: number, draft: unknown, activeMs: number) {
  inTransaction(db, () => {
    const a = ownAssignment(db, actor, assignmentId);
    openStudyForWorker(db, actor, a.studyId);
    if (!takesWork(a)) throw conflict('This item was already submitted.');
    const now = Date.now();
    assignmentsQ.upsertDraft(db, a.id, draft, now);
    creditActiveTime(db, a, activeMs, now);
    assignmentsQ.markSeen(db, a.id, now);
  });
  return { saved: true as const };
}

/** An assignment shown to its own reviewer: a pending one starts its active-time clock if it has none yet. */
export function serveAssignment(db: Db, a: AssignmentRow) {
  // The time an item was first served only starts its active-time clock; losing it in a power cut loses no work.
  if (a.state === 'pending' && a.creditedUntil === null) withoutWaitingForDisk(db, () => assignmentsQ.markServed(db, a.id, Date.now()));
}
