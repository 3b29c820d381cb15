import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { ownAssignment, studyForWorker } from './access';
import type { QueueDto } from './dto';
import { getQueue } from './flow-review';
import { submitAs, type SubmitResult } from './submit';

const assignmentRef = z.looseObject({ assignmentId: z.number().int().positive() });

/**
 * Submits an assignment of either kind (its study decides which rules apply) and answers with the reviewer's queue
 * of that study as it now stands, so a client moves on to the next item without asking for the queue again. The
 * review screens' actions and the JSON submission route both call this.
 */
export function submitAndQueue(actor: Actor, input: unknown): SubmitResult & { queue: QueueDto } {
  const { assignmentId } = parseInput(assignmentRef, input);
  const db = getDb();
  const study = studyForWorker(db, actor, ownAssignment(db, actor, assignmentId).studyId);
  const result = submitAs(study.kind, actor, input);
  return { ...result, queue: getQueue(actor, study.id) };
}
