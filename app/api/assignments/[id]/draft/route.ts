import { json, route } from '@/lib/auth/handlers';
import { notFound } from '@/lib/server/errors';
import { saveDraft } from '@/lib/server/review/draft';

/**
 * Saves what the reviewer has chosen so far on one of their assignments (any kind), as the review screens do while
 * they work: `{ draft, activeMs }` as JSON. A route, not a server action, because it is the most frequent request a
 * screen sends and has nothing to render, and because a screen that is being closed can still send it
 * (`fetch(…, { keepalive: true })`).
 */
export const POST = route(async (actor, request, { id }) => {
  const assignmentId = Number(id);
  if (!Number.isInteger(assignmentId) || assignmentId < 1) throw notFound('That assignment');
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  return json({ ok: true, data: saveDraft(actor, { ...(body ?? {}), assignmentId }) });
});
