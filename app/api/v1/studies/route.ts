import { page } from '@/lib/api/cursor';
import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { createStudy, listStudiesView } from '@/lib/server/studies/studies';

export const GET = apiRoute(OPERATIONS.listStudies, ({ actor, query: { cursor, limit, kind, status, q } }) =>
  page(listStudiesView(actor, { kind, status, q, sort: 'oldest' }), cursor, limit),
);

export const POST = apiRoute(OPERATIONS.createStudy, ({ actor, body }) => ({ id: createStudy(actor, body).id }));
