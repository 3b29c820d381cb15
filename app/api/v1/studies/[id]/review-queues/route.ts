import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { openReviewQueue } from '@/lib/server/analytics/review-queue-open';

export const POST = apiRoute(OPERATIONS.openReviewQueue, ({ actor, params: { id }, body }) => openReviewQueue(actor, id, body));
