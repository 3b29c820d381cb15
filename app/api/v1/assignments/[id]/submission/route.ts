import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { submitAndQueue } from '@/lib/server/review/submit-and-queue';

/** The screens' submission use-case: its rules, and its idempotency by requestId. The path names the assignment. */
export const POST = apiRoute(OPERATIONS.submit, ({ actor, params: { id }, body }) => submitAndQueue(actor, { ...body, assignmentId: id }));
