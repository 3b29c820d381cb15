import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { addReviewerSchema, deadlineSchema, editStudySchema, replaceReviewerSchema } from '@/lib/validation/studies';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { GuidelineVersionDto, ReplaceReviewerResultDto } from './dto';

/*
 * Changes to a study after it was created: its name and guidelines (every version kept), its deadline, its reviewers
 * (added, or one who left replaced), and archiving a closed study. Each change is audited in its own transaction.
 */

/** A study that can still be edited: a draft or an open study (a closed one is a record of what was done). */
function editableStudy(db: Db, actor: Actor, studyId: number) {
  const study = studyForStaff(db, actor, studyId);
  if (study.status === 'closed') throw conflict('The study is closed; a closed study is kept as it was.');
  return study;
}

/** An account that can sign in and review. */
function activeAccount(db: Db, username: string, field: string) {
  const user = usersQ.findUserByUsername(db, username);
  if (!user || !user.active || !user.passwordHash) throw invalid(`No active account named "${username}".`, { [field]: 'Unknown account' });
  return user;
}

/**
 * Renames a study and/or replaces its guidelines. New guidelines become a new version: reviewers see the newest one,
 * and every earlier one stays readable on the study page.
 */
export function editStudy(actor: Actor, studyId: number, input: unknown): { name: string; guidelinesVersion: number } {
  const db = getDb();
  const { name, guidelines } = parseInput(editStudySchema, input);
  return inTransaction(db, () => {
    const study = editableStudy(db, actor, studyId);
    const changes: Record<string, unknown> = {};
    if (name !== undefined && name !== study.name) {
      studiesQ.updateStudy(db, studyId, { name });
      changes.name = { from: study.name, to: name };
    }
    let version = studiesQ.latestGuidelineVersion(db, studyId);
    if (guidelines !== undefined && guidelines !== study.guidelines) {
      studiesQ.updateStudy(db, studyId, { guidelines });
      version = studiesQ.insertGuidelineVersion(db, studyId, guidelines, actor.id);
      changes.guidelinesVersion = version;
    }
    if (Object.keys(changes).length) audit(db, { userId: actor.id, action: 'study_edited', studyId, detail: changes });
    return { name: name ?? study.name, guidelinesVersion: version };
  });
}

export function guidelineVersions(actor: Actor, studyId: number): GuidelineVersionDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return studiesQ.listGuidelineVersions(db, studyId).map((v) => ({ ...v, createdAt: new Date(v.createdAt).toISOString() }));
}

/** Sets or moves the study's deadline (a new one may be earlier or later than the old; it is never enforced). */
export function setDeadline(actor: Actor, studyId: number, input: unknown): { deadline: string } {
  const db = getDb();
  const { deadline } = parseInput(deadlineSchema, input);
  return inTransaction(db, () => {
    const study = editableStudy(db, actor, studyId);
    studiesQ.updateStudy(db, studyId, { deadlineAt: deadline });
    audit(db, {
      userId: actor.id,
      action: 'study_deadline_set',
      studyId,
      detail: { from: study.deadlineAt?.toISOString() ?? null, to: deadline.toISOString() },
    });
    return { deadline: deadline.toISOString() };
  });
}

/** Archives a closed study (left out of the studies list unless asked for), or brings it back. */
export function setArchived(actor: Actor, studyId: number, archived: boolean) {
  const db = getDb();
  inTransaction(db, () => {
    const study = studyForStaff(db, actor, studyId);
    if (archived && study.status !== 'closed') throw conflict('Only a closed study can be archived; close it first.');
    if (archived === !!study.archivedAt) return;
    studiesQ.updateStudy(db, studyId, { archivedAt: archived ? new Date() : null });
    audit(db, { userId: actor.id, action: archived ? 'study_archived' : 'study_unarchived', studyId });
  });
}

/**
 * Adds a reviewer to an open study. They become a member (in the study's list of reviewers, for review queues opened
 * later); existing assignments stay where they are — to hand someone's pending work over, replace that reviewer.
 */
export function addReviewer(actor: Actor, studyId: number, input: unknown) {
  const db = getDb();
  const { username } = parseInput(addReviewerSchema, input);
  inTransaction(db, () => {
    const study = editableStudy(db, actor, studyId);
    if (study.status === 'draft') throw conflict('While the study is a draft, choose its reviewers in the reviewers form.');
    const user = activeAccount(db, username, 'username');
    if (study.adjudicatorId === user.id)
      throw invalid(`${username} adjudicates this study and cannot also review it.`, { username: 'Adjudicator' });
    if (studiesQ.memberSet(db, studyId, user.id)) throw conflict(`${username} is already a reviewer of this study.`);
    studiesQ.insertMember(db, studyId, user.id, null);
    audit(db, { userId: actor.id, action: 'study_reviewer_added', studyId, objectId: user.id, detail: { username } });
  });
}

/**
 * Hands the pending work of a reviewer who left to someone else. Each pending assignment `from` never submitted moves
 * to `to` with its item, slot and display order, at the end of `to`'s queue; what `from` submitted stays theirs (and
 * so does a pending item they had submitted and then undone: their revisions are kept with them). Refused whole if
 * `to` already reviews one of those items. `to` joins the study in `from`'s set.
 */
export function replaceReviewer(actor: Actor, studyId: number, input: unknown): ReplaceReviewerResultDto {
  const db = getDb();
  const { from, to } = parseInput(replaceReviewerSchema, input);
  if (from === to) throw invalid('Choose someone other than the reviewer who left.', { to: 'Same person' });
  return inTransaction(db, () => {
    const study = editableStudy(db, actor, studyId);
    if (study.status !== 'open') throw conflict('Reviewers are replaced in an open study; in a draft, choose them again.');
    const leaving = usersQ.findUserByUsername(db, from);
    const membership = leaving ? studiesQ.memberSet(db, studyId, leaving.id) : undefined;
    if (!leaving || !membership) throw invalid(`${from} is not a reviewer of this study.`, { from: 'Not a reviewer' });
    const taking = activeAccount(db, to, 'to');
    if (study.adjudicatorId === taking.id) throw invalid(`${to} adjudicates this study and cannot also review it.`, { to: 'Adjudicator' });
    const overlap = assignmentsQ.userItemOverlap(db, taking.id, leaving.id, studyId);
    if (overlap > 0) {
      throw conflict(
        `${to} already reviews ${overlap} of ${from}'s pending item${overlap === 1 ? '' : 's'}; an item cannot have the same reviewer twice. Choose someone else.`,
      );
    }
    const moving = assignmentsQ.untouchedPending(db, studyId, leaving.id);
    let position = assignmentsQ.lastQueuePosition(db, studyId, taking.id);
    for (const a of moving) {
      // An assignment's reviewer never changes (the packed labels are filed under it): the old one goes, a new one
      // takes its slot. Deleting first keeps the (item, slot) index unique; the queue counts follow by trigger.
      if (assignmentsQ.deleteUntouchedAssignment(db, a.id) !== 1)
        throw conflict('The study changed while reviewers were replaced; try again.');
      assignmentsQ.insertAssignment(db, {
        studyId,
        itemId: a.itemId,
        userId: taking.id,
        slot: a.slot,
        queuePosition: ++position,
        swapped: a.swapped === 1,
      });
    }
    if (!studiesQ.memberSet(db, studyId, taking.id)) studiesQ.insertMember(db, studyId, taking.id, membership.setIndex);
    const keptUndone = assignmentsQ.pendingWithHistory(db, studyId, leaving.id);
    audit(db, {
      userId: actor.id,
      action: 'study_reviewer_replaced',
      studyId,
      objectId: taking.id,
      detail: { from, to, moved: moving.length, keptWithEarlierRevisions: keptUndone },
    });
    return { from, to, moved: moving.length, keptWithEarlierRevisions: keptUndone };
  });
}
