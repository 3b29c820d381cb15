import * as z from 'zod';
import { json, route } from '@/lib/auth/handlers';
import { reportCsv } from '@/lib/io/report-csv';
import {
  REPORT_TABLES,
  type ReportDtos,
  type ReportName,
  type ReportTable,
  isReportName,
  isReportTable,
} from '@/lib/server/analytics/dto';
import { reportFilename } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { reportForRequest } from '@/lib/server/analytics/report-process';
import { invalid, notFound } from '@/lib/server/errors';
import { parseStudyId } from '@/lib/server/studies/studies';

/*
 * GET /api/studies/:id/reports/:report — agreement | alignment | leaderboard | hybrid | certify | bias, and for rubric
 *   studies rubric-agreement | rubric-alignment | rubric-leaderboard | rubric-hybrid | rubric-certify | rubric-bias
 *   (options sample, lenient); annotators for every kind with labels.
 *   ?format=json (default): the whole report, exactly the JSON `concord report … --json` prints.
 *   ?format=csv&table=<name>: one of its tables (REPORT_TABLES in lib/server/analytics/dto/reports.ts).
 * Options: judge (alignment, hybrid, certify), criterion and target (hybrid, certify), epsilon (certify, hybrid), delta (hybrid), tiePolicy
 * (leaderboard), bootstrap (agreement, alignment, leaderboard; default 1000, 0 for point estimates only, at most
 * MAX_BOOTSTRAP_REPLICATES). The use-cases parse the options and decide who may read the report (leads and admins);
 * a report with a bootstrap is computed by a process of its own (`report-process.ts`), so this server keeps
 * answering meanwhile.
 */

const querySchema = z.object({
  format: z.enum(['json', 'csv'], { error: 'format is json or csv.' }).default('json'),
  table: z.string().optional(),
  judge: z.string().optional(),
  criterion: z.string().optional(),
  target: z.string().optional(),
  tiePolicy: z.string().optional(),
  bootstrap: z.string().optional(),
  epsilon: z.string().optional(),
  delta: z.string().optional(),
  sample: z.string().optional(),
  lenient: z.string().optional(),
});

type Query = z.infer<typeof querySchema>;

function parseQuery(url: URL): Query {
  const parsed = querySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => i.message).join(' '));
  return parsed.data;
}

function respond<R extends ReportName>(studyId: number, report: R, dto: ReportDtos[R], q: Query): Response {
  if (q.format === 'json') return json(reportJson(dto));
  const lines = reportCsv(report, q.table as ReportTable<R>, dto);
  const filename = reportFilename(studyId, report, {
    judge: 'judge' in dto ? dto.judge : undefined,
    criterion: 'criterion' in dto ? dto.criterion : undefined,
    tiePolicy: 'tiePolicy' in dto ? dto.tiePolicy : undefined,
    table: q.table,
    format: 'csv',
  });
  return new Response(lines.join(''), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

export const GET = route(async (actor, request, params) => {
  const studyId = parseStudyId(params.id);
  const name = params.report;
  if (!isReportName(name)) throw notFound(`A report named "${name}"`);
  const q = parseQuery(new URL(request.url));
  if (q.format === 'csv' && !(q.table && isReportTable(name, q.table))) {
    throw invalid(`Name the table to download: table=${REPORT_TABLES[name].join(' | ')}.`, { table: 'Unknown table' });
  }
  const { judge, criterion, target, epsilon, delta, tiePolicy, bootstrap, sample, lenient } = q;
  const dto = await reportForRequest(
    actor,
    studyId,
    name,
    { judge, criterion, target, epsilon, delta, tiePolicy, bootstrap, sample, lenient },
    request.signal,
  );
  return respond(studyId, name, dto, q);
});
