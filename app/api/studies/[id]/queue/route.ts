import { json, route } from '@/lib/auth/handlers';
import { getQueue } from '@/lib/server/review/flow-review';
import { parseStudyId } from '@/lib/server/studies/studies';

export const GET = route((actor, _req, { id }) => json(getQueue(actor, parseStudyId(id))));
