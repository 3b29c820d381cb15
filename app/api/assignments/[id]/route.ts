import { json, route } from '@/lib/auth/handlers';
import { notFound } from '@/lib/server/errors';
import { getAssignmentView } from '@/lib/server/review/flow-review';

export const GET = route((actor, _req, { id }) => {
  const assignmentId = Number(id);
  if (!Number.isInteger(assignmentId) || assignmentId < 1) throw notFound('That assignment');
  return json(getAssignmentView(actor, assignmentId));
});
