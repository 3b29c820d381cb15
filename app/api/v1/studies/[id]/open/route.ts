import { OPERATIONS } from '@/lib/api/operations';
import { presentStudy } from '@/lib/api/present';
import { apiRoute } from '@/lib/auth/api-route';
import { getStudyProgress } from '@/lib/server/studies/progress';
import { openStudy } from '@/lib/server/studies/studies';

export const POST = apiRoute(OPERATIONS.openStudy, ({ actor, params: { id } }) =>
  presentStudy(openStudy(actor, id), getStudyProgress(actor, id)),
);
