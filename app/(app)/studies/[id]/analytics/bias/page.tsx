import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { biasReport } from '@/lib/server/analytics/bias';
import { reportJson } from '@/lib/server/analytics/json';
import { BiasDashboard } from '../_components/bias-dashboard';
import { NotPairwise } from '../_components/not-pairwise';
import { analyticsContext } from '../_lib/context';

export const metadata: Metadata = { title: 'Bias' };

export default async function BiasPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (study.kind !== 'pairwise') return <NotPairwise studyId={studyId} kind={study.kind} />;
  const data = reportJson(biasReport(actor, studyId)) as ReportJson['bias'];
  return <BiasDashboard studyId={studyId} data={data} />;
}
