import { OPERATIONS } from '@/lib/api/operations';
import { presentStudy } from '@/lib/api/present';
import { apiRoute } from '@/lib/auth/api-route';
import { getStudyProgress } from '@/lib/server/studies/progress';
import { getStudy } from '@/lib/server/studies/studies';

export const GET = apiRoute(OPERATIONS.getStudy, ({ actor, params: { id } }) =>
  presentStudy(getStudy(actor, id), getStudyProgress(actor, id)),
);
