import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { biasReport } from '@/lib/server/analytics/bias';
import { reportJson } from '@/lib/server/analytics/json';
import { reportFor } from '@/lib/server/analytics/report';
import { BiasDashboard, type BiasReportName } from '../_components/bias-dashboard';
import { NoReport } from '../_components/no-report';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Bias' };

export default async function BiasPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const report = reportFor(study.kind, 'bias') as BiasReportName | null;
  if (!report) return <NoReport studyId={studyId} kind={study.kind} />;
  const sp = await searchParams;
  // The options from the address, for a report that reads them (the others drop them); a sample out of range shows
  // the first rather than an error page.
  const sample = Number(first(sp.sample));
  const initial = biasReport(actor, studyId, report, {
    sample: Number.isInteger(sample) && sample >= 1 && sample <= 100 ? sample : 1,
    lenient: first(sp.lenient) === 'true',
  });
  return <BiasDashboard studyId={studyId} report={report} initial={reportJson(initial) as ReportJson[BiasReportName]} />;
}
