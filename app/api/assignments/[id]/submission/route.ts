import { json, route } from '@/lib/auth/handlers';
import { assignmentSubmission } from '@/lib/server/review/assignment-requests';

/**
 * The same submission as the review screens make, as JSON, for scripted clients and load tests:
 * `{ requestId, activeMs, decision }` for a flow, `{ requestId, activeMs, choices }` for a pairwise item.
 * Idempotent by requestId. Answers with the reviewer's queue as it now stands, as the screens' actions do.
 * Answered by the direct routes before Next in a running server (app/api/assignments/direct.ts); the same use-case.
 */
export const POST = route(async (actor, request, { id }) => json(assignmentSubmission(actor, id, await request.json().catch(() => null))));
