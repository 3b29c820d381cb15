import { json, route } from '@/lib/auth/handlers';
import { getAdjudicationQueue } from '@/lib/server/review/adjudication';
import { parseStudyId } from '@/lib/server/studies/studies';

export const GET = route((actor, _req, { id }) => json(getAdjudicationQueue(actor, parseStudyId(id))));
