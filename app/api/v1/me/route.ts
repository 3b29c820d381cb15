import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { listMyStudies } from '@/lib/server/studies/studies';

export const GET = apiRoute(OPERATIONS.me, ({ actor, token }) => ({ ...actor, token, studies: listMyStudies(actor) }));
