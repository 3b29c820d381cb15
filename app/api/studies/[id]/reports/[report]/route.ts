import * as z from 'zod';
import { json, route } from '@/lib/auth/handlers';
import {
  REPORT_TABLES,
  type ReportDtos,
  type ReportName,
  type ReportTable,
  isReportName,
  isReportTable,
  reportCsv,
} from '@/lib/io/report-csv';
import { reportFilename } from '@/lib/query/analytics';
import type { Actor } from '@/lib/server/actor';
import { agreementReport } from '@/lib/server/analytics/agreement';
import { alignmentReport } from '@/lib/server/analytics/alignment';
import { biasReport } from '@/lib/server/analytics/bias';
import { certifyReport } from '@/lib/server/analytics/certify';
import { hybridReport } from '@/lib/server/analytics/hybrid';
import { reportJson } from '@/lib/server/analytics/json';
import { leaderboardReport } from '@/lib/server/analytics/leaderboard';
import { invalid, notFound } from '@/lib/server/errors';
import { parseStudyId } from '@/lib/server/studies';

/*
 * GET /api/studies/:id/reports/:report — agreement | alignment | leaderboard | hybrid | certify | bias.
 *   ?format=json (default): the whole report, exactly the JSON `concord report … --json` prints.
 *   ?format=csv&table=<name>: one of its tables (REPORT_TABLES in lib/io/report-csv).
 * Options: judge (alignment, hybrid, certify), criterion and target (hybrid, certify), epsilon (certify), tiePolicy (leaderboard), bootstrap
 * (agreement, alignment, leaderboard; default 1000, 0 for point estimates only). The use-cases parse the options
 * and decide who may read the report (leads and admins).
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

function report(actor: Actor, studyId: number, name: ReportName, q: Query): Response {
  switch (name) {
    case 'agreement':
      return respond(studyId, name, agreementReport(actor, studyId, { bootstrap: q.bootstrap }), q);
    case 'alignment':
      return respond(studyId, name, alignmentReport(actor, studyId, { judge: q.judge ?? '', bootstrap: q.bootstrap }), q);
    case 'leaderboard':
      return respond(studyId, name, leaderboardReport(actor, studyId, { tiePolicy: q.tiePolicy, bootstrap: q.bootstrap }), q);
    case 'hybrid':
      return respond(studyId, name, hybridReport(actor, studyId, { judge: q.judge ?? '', criterion: q.criterion, target: q.target }), q);
    case 'certify':
      return respond(
        studyId,
        name,
        certifyReport(actor, studyId, { judge: q.judge ?? '', criterion: q.criterion, target: q.target, epsilon: q.epsilon }),
        q,
      );
    case 'bias':
      return respond(studyId, name, biasReport(actor, studyId), q);
  }
}

export const GET = route((actor, request, params) => {
  const studyId = parseStudyId(params.id);
  const name = params.report;
  if (!isReportName(name)) throw notFound(`A report named "${name}"`);
  const q = parseQuery(new URL(request.url));
  if (q.format === 'csv' && !(q.table && isReportTable(name, q.table))) {
    throw invalid(`Name the table to download: table=${REPORT_TABLES[name].join(' | ')}.`, { table: 'Unknown table' });
  }
  return report(actor, studyId, name, q);
});
