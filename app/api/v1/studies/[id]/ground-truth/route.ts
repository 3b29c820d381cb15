import { linesResponse } from '@/lib/api/download';
import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { exportGroundTruth } from '@/lib/server/ground-truth/ground-truth';

/** Streamed as the client reads it, as the browser's export; the incomplete items left out are counted in a header. */
export const GET = apiRoute(OPERATIONS.groundTruth, ({ actor, params: { id }, query: { format } }) => {
  const out = exportGroundTruth(actor, id, format);
  return linesResponse(out, { 'x-concord-incomplete-items': String(out.summary.incomplete) });
});
