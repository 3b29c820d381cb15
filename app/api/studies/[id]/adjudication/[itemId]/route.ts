import { json, route } from '@/lib/auth/handlers';
import { getAdjudicationView } from '@/lib/server/review/adjudication';
import { notFound } from '@/lib/server/errors';
import { parseStudyId } from '@/lib/server/studies/studies';

export const GET = route((actor, _req, { id, itemId }) => {
  const item = Number(itemId);
  if (!Number.isInteger(item) || item < 1) throw notFound('That item');
  return json(getAdjudicationView(actor, parseStudyId(id), item));
});
