import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { annotatorExclusions } from '@/lib/server/analytics/annotators-exclusions';

export const GET = apiRoute(OPERATIONS.listExclusions, ({ actor, params: { id } }) => annotatorExclusions(actor, id));
