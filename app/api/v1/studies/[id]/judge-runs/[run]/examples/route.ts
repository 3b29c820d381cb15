import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { newTemplateFromDisagreements } from '@/lib/server/judges/examples';

export const POST = apiRoute(OPERATIONS.judgeExamples, ({ actor, params: { id, run }, body }) =>
  newTemplateFromDisagreements(actor, id, { run, ...body }),
);
