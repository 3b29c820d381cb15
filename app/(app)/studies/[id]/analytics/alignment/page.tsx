import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { computeReport, reportFor } from '@/lib/server/analytics/report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { defaultJudgeRun } from '@/components/study/judge-run-order';
import { AlignmentDashboard, type AlignmentReportName } from '../_components/alignment-dashboard';
import { NoJudgeRuns } from '../_components/no-judge-runs';
import { NoReport } from '../_components/no-report';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Judge alignment' };

export default async function AlignmentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const report = reportFor(study.kind, 'alignment') as AlignmentReportName | null;
  if (!report) return <NoReport studyId={studyId} kind={study.kind} />;
  const runs = listJudgeRuns(actor, studyId);
  if (runs.length === 0) return <NoJudgeRuns studyId={studyId} />;
  const sp = await searchParams;
  const judge = defaultJudgeRun(runs, first(sp.judge));
  // Point estimates only: the bootstrap is left to the client. A sample the run does not have (reports with
  // samples) falls back to the first; a report without samples ignores it.
  const sample = first(sp.sample);
  const read = (s: string | undefined) => computeReport(actor, studyId, report, { judge, sample: s, bootstrap: '0' });
  let dto;
  try {
    dto = read(sample);
  } catch (e) {
    if (sample === undefined) throw e;
    dto = read(undefined);
  }
  return <AlignmentDashboard studyId={studyId} report={report} runs={runs} initial={reportJson(dto) as ReportJson[AlignmentReportName]} />;
}
