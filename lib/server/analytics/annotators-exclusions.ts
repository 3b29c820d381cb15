import 'server-only';
import * as z from 'zod';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as xq from '@/db/queries/packs-exclusions';
import { findUserById, findUserByUsername } from '@/db/queries/users';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { notFound } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { ExcludedLabelsDto } from './dto';

/*
 * Excluding an annotator from a study (issue 27, decision 0029): a lead or an admin leaves one annotator's labels
 * out of the ground truth and of every report, and can include them again. The exclusion is one row per study and
 * annotator (`annotator_exclusions`); the readers of the labels apply it in db/queries/packs.ts, so this file only
 * writes it and records it in the audit log, in the same transaction.
 */

/** The annotator, by account id (the API, the screen) or username (the CLI). */
const annotatorSchema = z.union([z.number().int().positive(), z.string().trim().min(1, 'Name the annotator.')]);

/** The annotator's account, who must hold an assignment in the study (only they have labels to leave out). */
function annotatorOf(db: Db, studyId: number, input: unknown) {
  const who = parseInput(annotatorSchema, input, 'user');
  const user = typeof who === 'number' ? findUserById(db, who) : findUserByUsername(db, who);
  if (!user || !xq.hasAssignmentIn(db, studyId, user.id)) throw notFound('That annotator in this study');
  return user;
}

/** What the reports say about the study's exclusions: the labels left out, in all and per annotator. */
export function excludedLabels(db: Db, studyId: number): ExcludedLabelsDto {
  const counts = new Map(xq.excludedLabelCounts(db, studyId).map((r) => [r.userId, r.labels]));
  const annotators = xq.exclusions(db, studyId).map((e) => ({
    userId: e.userId,
    username: e.username,
    labels: counts.get(e.userId) ?? 0,
    excludedBy: e.excludedBy,
    excludedAt: new Date(e.createdAt).toISOString(),
  }));
  return { labels: annotators.reduce((t, a) => t + a.labels, 0), annotators };
}

/** The study's exclusions (leads and admins). */
export function annotatorExclusions(actor: Actor, studyId: number): ExcludedLabelsDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return excludedLabels(db, studyId);
}

/** Leaves the annotator's labels out of the study's ground truth and reports; excluding twice changes nothing. */
export function excludeAnnotator(actor: Actor, studyId: number, annotator: unknown): ExcludedLabelsDto {
  const db = getDb();
  return inTransaction(db, () => {
    studyForStaff(db, actor, studyId);
    const user = annotatorOf(db, studyId, annotator);
    if (xq.insertExclusion(db, studyId, user.id, actor.id)) {
      audit(db, { userId: actor.id, action: 'annotator.exclude', studyId, objectId: user.id, detail: { username: user.username } });
    }
    return excludedLabels(db, studyId);
  });
}

/** Counts the annotator's labels again; including someone who was not excluded changes nothing. */
export function includeAnnotator(actor: Actor, studyId: number, annotator: unknown): ExcludedLabelsDto {
  const db = getDb();
  return inTransaction(db, () => {
    studyForStaff(db, actor, studyId);
    const user = annotatorOf(db, studyId, annotator);
    if (xq.deleteExclusion(db, studyId, user.id)) {
      audit(db, { userId: actor.id, action: 'annotator.include', studyId, objectId: user.id, detail: { username: user.username } });
    }
    return excludedLabels(db, studyId);
  });
}
