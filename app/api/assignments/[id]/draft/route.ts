import { json, route } from '@/lib/auth/handlers';
import { assignmentDraft } from '@/lib/server/review/assignment-requests';

/**
 * Saves what the reviewer has chosen so far on one of their assignments (any kind), as the review screens do while
 * they work: `{ draft, activeMs }` as JSON. A route, not a server action, because it is the most frequent request a
 * screen sends and has nothing to render, and because a screen that is being closed can still send it
 * (`fetch(…, { keepalive: true })`). Answered by the direct routes before Next in a running server
 * (app/api/assignments/direct.ts); the same use-case.
 */
export const POST = route(async (actor, request, { id }) => json(assignmentDraft(actor, id, await request.json().catch(() => null))));
