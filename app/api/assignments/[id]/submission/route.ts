import { json, route } from '@/lib/auth/handlers';
import { notFound } from '@/lib/server/errors';
import { submitAndQueue } from '@/lib/server/review/submit-and-queue';

/**
 * The same submission as the review screens make, as JSON, for scripted clients and load tests:
 * `{ requestId, activeMs, decision }` for a flow, `{ requestId, activeMs, choices }` for a pairwise item.
 * Idempotent by requestId. Answers with the reviewer's queue as it now stands, as the screens' actions do.
 */
export const POST = route(async (actor, request, { id }) => {
  const assignmentId = Number(id);
  if (!Number.isInteger(assignmentId) || assignmentId < 1) throw notFound('That assignment');
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  return json({ ok: true, data: submitAndQueue(actor, { ...(body ?? {}), assignmentId }) });
});
