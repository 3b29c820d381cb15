import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { alignmentReport } from '@/lib/server/analytics/alignment';
import { reportJson } from '@/lib/server/analytics/json';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { AlignmentDashboard } from '../_components/alignment-dashboard';
import { NoJudgeRuns } from '../_components/no-judge-runs';
import { NotPairwise } from '../_components/not-pairwise';
import { RubricAlignmentDashboard } from '../_components/rubric-alignment-dashboard';
import { rubricAlignmentReport } from '@/lib/server/analytics/rubric-alignment';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Judge alignment' };

export default async function AlignmentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (study.kind !== 'pairwise' && study.kind !== 'rubric') return <NotPairwise studyId={studyId} kind={study.kind} />;
  const runs = listJudgeRuns(actor, studyId);
  if (runs.length === 0) return <NoJudgeRuns studyId={studyId} />;
  const sp = await searchParams;
  const asked = first(sp.judge);
  const judge = runs.find((r) => r.name === asked)?.name ?? runs[0].name;
  if (study.kind === 'rubric') {
    // A sample the run does not have falls back to the first.
    const sample = Number(first(sp.sample));
    const read = (s: number) => rubricAlignmentReport(actor, studyId, { judge, sample: s, bootstrap: 0 });
    let report;
    try {
      report = read(Number.isInteger(sample) && sample >= 1 && sample <= 100 ? sample : 1);
    } catch {
      report = read(1);
    }
    return <RubricAlignmentDashboard studyId={studyId} runs={runs} initial={reportJson(report) as ReportJson['rubric-alignment']} />;
  }
  const initial = reportJson(alignmentReport(actor, studyId, { judge, bootstrap: 0 })) as ReportJson['alignment'];
  return <AlignmentDashboard studyId={studyId} runs={runs} initial={initial} />;
}
