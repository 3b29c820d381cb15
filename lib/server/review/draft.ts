import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import { studyKind } from '@/lib/kinds/registry';
import { saveDraftSchema } from '@/lib/validation/review';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { ownAssignment, savePendingDraft, studyForWorker } from './access';

/**
 * Saves what a reviewer has chosen so far on one of their assignments, for every kind of study: the draft is parsed
 * with the schema of the assignment's own kind (a flow's draft is refused on a pairwise item), then saved with the
 * active time reported so far (`savePendingDraft` checks the assignment again in its transaction).
 */
export function saveDraft(actor: Actor, input: unknown) {
  const { assignmentId, draft, activeMs } = parseInput(saveDraftSchema, input);
  const db = getDb();
  const study = studyForWorker(db, actor, ownAssignment(db, actor, assignmentId).studyId);
  const parsed = parseInput(z.object({ draft: studyKind(study.kind).review.draftSchema }), { draft }).draft;
  return savePendingDraft(db, actor, assignmentId, parsed, activeMs);
}
