import 'server-only';
import type { Db } from '@/db/client';
import * as studiesQ from '@/db/queries/studies';
import { isStaff, type Actor } from './actor';
import { forbidden, notFound } from './errors';

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
