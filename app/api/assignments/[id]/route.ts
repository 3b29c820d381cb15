import { json, route } from '@/lib/auth/handlers';
import { assignmentItem } from '@/lib/server/review/assignment-requests';

// Answered by the direct routes before Next in a running server (app/api/assignments/direct.ts); the same use-case.
export const GET = route((actor, _req, { id }) => json(assignmentItem(actor, id)));
