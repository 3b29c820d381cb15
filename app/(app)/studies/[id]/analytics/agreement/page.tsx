import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { computeReport, reportFor } from '@/lib/server/analytics/report';
import { AgreementDashboard, type AgreementReportName } from '../_components/agreement-dashboard';
import { NoReport } from '../_components/no-report';
import { analyticsContext } from '../_lib/context';

export const metadata: Metadata = { title: 'Agreement' };

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const report = reportFor(study.kind, 'agreement') as AgreementReportName | null;
  if (!report) return <NoReport studyId={studyId} kind={study.kind} />;
  // Point estimates only: the bootstrap is left to the client, so the figures appear at once on any study size.
  const initial = reportJson(computeReport(actor, studyId, report, { bootstrap: '0' })) as ReportJson[AgreementReportName];
  return <AgreementDashboard studyId={studyId} report={report} initial={initial} />;
}
