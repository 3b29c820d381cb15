import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { reportFor } from '@/lib/server/analytics/report';
import { reportForRequest } from '@/lib/server/analytics/report-process';
import { AnnotatorsDashboard } from '../_components/annotators-dashboard';
import { NoReport } from '../_components/no-report';
import { analyticsContext } from '../_lib/context';

export const metadata: Metadata = { title: 'Annotators' };

/** Each annotator's quality, for any kind of study with labels (the `annotators` report). */
export default async function AnnotatorsPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (!reportFor(study.kind, 'annotators')) return <NoReport studyId={studyId} kind={study.kind} />;
  // In a child process, as the report route computes it: the EM models take seconds on a large study.
  const data = reportJson(await reportForRequest(actor, studyId, 'annotators', {})) as ReportJson['annotators'];
  return <AnnotatorsDashboard studyId={studyId} data={data} />;
}
