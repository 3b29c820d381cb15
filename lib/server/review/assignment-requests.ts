import 'server-only';
import type { Actor } from '../actor';
import { notFound } from '../errors';
import { saveDraft } from './draft';
import { getAssignmentView } from './flow-review';
import { submitAndQueue } from './submit-and-queue';

/**
 * The three requests a review screen sends item after item, as they arrive over HTTP: the assignment's id as the
 * path spells it and the JSON body as sent (null when it was not JSON). Next's route handlers under
 * `app/api/assignments/[id]/` and the direct routes that answer them before Next (`app/api/assignments/direct.ts`)
 * both call these, so the two cannot answer differently.
 */

function assignmentIdOf(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1) throw notFound('That assignment');
  return id;
}

const fields = (body: unknown) => (body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {});

/** GET /api/assignments/:id — the assignment as its reviewer sees it. */
export const assignmentItem = (actor: Actor, id: string) => getAssignmentView(actor, assignmentIdOf(id));

/** POST /api/assignments/:id/submission — `{ requestId, activeMs, decision | choices | labels }`, idempotent by requestId. */
export const assignmentSubmission = (actor: Actor, id: string, body: unknown) => ({
  ok: true as const,
  data: submitAndQueue(actor, { ...fields(body), assignmentId: assignmentIdOf(id) }),
});

/** POST /api/assignments/:id/draft — `{ draft, activeMs }`. */
export const assignmentDraft = (actor: Actor, id: string, body: unknown) => ({
  ok: true as const,
  data: saveDraft(actor, { ...fields(body), assignmentId: assignmentIdOf(id) }),
});
