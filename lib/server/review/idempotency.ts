import 'server-only';
import type { Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import { contentHash } from '@/lib/io/canonical';
import { conflict } from '../errors';

/**
 * The hash a request id is kept with: SHA-256 of the canonical JSON of what the request asks for. Only the
 * submission itself goes in, never the active time, which a retry may report higher.
 */
export const requestHash = (content: unknown): string => contentHash(content);

export const DIFFERENT_SUBMISSION =
  'This request id was already used for a different submission; the first one is kept and this one was not recorded. ' +
  'Reload to see what was stored; a new submission needs a new request id.';

export const UNDONE_SUBMISSION =
  'This request id belongs to a submission that was undone since; it is not recorded again. Submit the item anew to record a decision.';

/**
 * What a request id the reviewer already used means now. The same submission again is a retry, answered with the
 * first result (`duplicate`). A different one is a conflict: the first stands, and the second is neither stored
 * nor silently dropped. A replay of a submission that was undone since is a conflict too: it would otherwise
 * answer "stored" while nothing counts.
 */
export function replayedAnnotation(db: Db, prior: q.AnnotationRow, assignmentId: number, hash: string) {
  // Annotations written before hashes were kept carry none: only their assignment can be compared.
  if (prior.assignmentId !== assignmentId || (prior.requestHash !== null && prior.requestHash !== hash))
    throw conflict(DIFFERENT_SUBMISSION);
  const a = q.findAssignment(db, assignmentId);
  if (a?.state !== 'submitted' || q.latestAnnotation(db, assignmentId)?.id !== prior.id) throw conflict(UNDONE_SUBMISSION);
  return { assignmentId, revision: prior.revision, duplicate: true as const };
}
