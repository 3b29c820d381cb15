import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { biasReport } from '@/lib/server/analytics/bias';
import { reportJson } from '@/lib/server/analytics/json';
import { rubricBiasReport } from '@/lib/server/analytics/rubric-bias';
import { BiasDashboard } from '../_components/bias-dashboard';
import { NotPairwise } from '../_components/not-pairwise';
import { RubricBiasDashboard } from '../_components/rubric-bias-dashboard';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Bias' };

export default async function BiasPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (study.kind === 'rubric') {
    const sp = await searchParams;
    const sample = Number(first(sp.sample));
    const data = rubricBiasReport(actor, studyId, {
      sample: Number.isInteger(sample) && sample >= 1 && sample <= 100 ? sample : 1,
      lenient: first(sp.lenient) === 'true',
    });
    return <RubricBiasDashboard studyId={studyId} initial={reportJson(data) as ReportJson['rubric-bias']} />;
  }
  if (study.kind !== 'pairwise') return <NotPairwise studyId={studyId} kind={study.kind} />;
  const data = reportJson(biasReport(actor, studyId)) as ReportJson['bias'];
  return <BiasDashboard studyId={studyId} data={data} />;
}
