import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { isReportName } from '@/lib/server/analytics/dto';
import { reportJson } from '@/lib/server/analytics/json';
import { reportForRequest } from '@/lib/server/analytics/report-process';
import { notFound } from '@/lib/server/errors';

/**
 * The registry's report through the same entry point as the browser's report route: point estimates here, bootstrap,
 * certify and bias in a process of their own (so this server keeps answering). The JSON is `concord report --json`'s.
 */
export const GET = apiRoute(OPERATIONS.getReport, async ({ actor, request, params: { id, report }, query }) => {
  if (!isReportName(report)) throw notFound(`A report named "${report}"`);
  return reportJson(await reportForRequest(actor, id, report, query, request.signal));
});
