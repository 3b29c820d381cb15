import { OPERATIONS } from '@/lib/api/operations';
import { presentStudy } from '@/lib/api/present';
import { apiRoute } from '@/lib/auth/api-route';
import { getStudyProgress } from '@/lib/server/studies/progress';
import { setStudyMembers } from '@/lib/server/studies/studies';

export const PUT = apiRoute(OPERATIONS.setMembers, ({ actor, params: { id }, body: { reviewers, mode, adjudicator } }) =>
  presentStudy(setStudyMembers(actor, id, { usernames: reviewers, mode, adjudicator }), getStudyProgress(actor, id)),
);
