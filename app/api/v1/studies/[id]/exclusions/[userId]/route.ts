import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { excludeAnnotator, includeAnnotator } from '@/lib/server/analytics/annotators-exclusions';

export const POST = apiRoute(OPERATIONS.excludeAnnotator, ({ actor, params: { id, userId } }) => excludeAnnotator(actor, id, userId));
export const DELETE = apiRoute(OPERATIONS.includeAnnotator, ({ actor, params: { id, userId } }) => includeAnnotator(actor, id, userId));
