import type { DirectRoute } from '@/lib/auth/direct-routes';
import { assignmentDraft, assignmentItem, assignmentSubmission } from '@/lib/server/review/assignment-requests';

/**
 * The review screens' per-item requests, answered before Next (decision 0051): the same paths and use-cases as the
 * route handlers beside this file. Those stay: Next answers what these leave to it (HEAD, OPTIONS, a path with a
 * trailing slash) through them, and they are the routes as Next and `docs/api.md` list them.
 */
export const assignmentDirectRoutes: DirectRoute[] = [
  { method: 'GET', path: /^\/api\/assignments\/([^/]+)$/, run: (actor, [id]) => assignmentItem(actor, id) },
  { method: 'POST', path: /^\/api\/assignments\/([^/]+)\/submission$/, run: (actor, [id], body) => assignmentSubmission(actor, id, body) },
  { method: 'POST', path: /^\/api\/assignments\/([^/]+)\/draft$/, run: (actor, [id], body) => assignmentDraft(actor, id, body) },
];
