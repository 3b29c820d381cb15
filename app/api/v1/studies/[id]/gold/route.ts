import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { setGoldSettings } from '@/lib/server/review/gold';

export const PUT = apiRoute(OPERATIONS.setGoldSettings, ({ actor, params: { id }, body }) => setGoldSettings(actor, id, body));
