import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { getAssignmentView, getQueue } from '@/lib/server/review/flow-review';

/** The queue and its current item from the use-cases the review screen loads them with, so the API is as blind as it. */
export const GET = apiRoute(OPERATIONS.nextItem, ({ actor, params: { id } }) => {
  const queue = getQueue(actor, id);
  return { queue, assignment: queue.currentId === null ? null : getAssignmentView(actor, queue.currentId) };
});
