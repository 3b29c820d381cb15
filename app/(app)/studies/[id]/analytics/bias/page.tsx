import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { biasReport } from '@/lib/server/analytics/bias';
import { reportJson } from '@/lib/server/analytics/json';
import { reportFor } from '@/lib/server/analytics/report';
import { rubricBiasReport } from '@/lib/server/analytics/rubric-bias';
import { BiasDashboard } from '../_components/bias-dashboard';
import { NoReport } from '../_components/no-report';
import { RubricBiasDashboard } from '../_components/rubric-bias-dashboard';
import { type AnalyticsView, type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Bias' };

/** The dashboard of each report that serves bias; the study's kind says which report it gets. */
const VIEWS: Record<'bias' | 'rubric-bias', AnalyticsView> = {
  bias: ({ actor, studyId }) => <BiasDashboard studyId={studyId} data={reportJson(biasReport(actor, studyId)) as ReportJson['bias']} />,
  'rubric-bias': ({ actor, studyId, sp }) => {
    const sample = Number(first(sp.sample));
    const data = rubricBiasReport(actor, studyId, {
      sample: Number.isInteger(sample) && sample >= 1 && sample <= 100 ? sample : 1,
      lenient: first(sp.lenient) === 'true',
    });
    return <RubricBiasDashboard studyId={studyId} initial={reportJson(data) as ReportJson['rubric-bias']} />;
  },
};

export default async function BiasPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const ctx = await analyticsContext((await params).id);
  const report = reportFor(ctx.study.kind, 'bias') as keyof typeof VIEWS | null;
  if (!report) return <NoReport studyId={ctx.studyId} kind={ctx.study.kind} />;
  return VIEWS[report]({ ...ctx, sp: await searchParams });
}
