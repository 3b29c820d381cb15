import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { alignmentReport } from '@/lib/server/analytics/alignment';
import { reportJson } from '@/lib/server/analytics/json';
import { reportFor } from '@/lib/server/analytics/report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { defaultJudgeRun } from '@/components/study/judge-run-order';
import { AlignmentDashboard } from '../_components/alignment-dashboard';
import { NoJudgeRuns } from '../_components/no-judge-runs';
import { NoReport } from '../_components/no-report';
import { RubricAlignmentDashboard } from '../_components/rubric-alignment-dashboard';
import { type AnalyticsView, type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Judge alignment' };

type View = (ctx: Parameters<AnalyticsView>[0] & { runs: JudgeRunDto[]; judge: string }) => ReturnType<AnalyticsView>;

/** The dashboard of each report that serves alignment; the study's kind says which report it gets. */
const VIEWS: Record<'alignment' | 'rubric-alignment', View> = {
  alignment: ({ actor, studyId, runs, judge }) => {
    const initial = reportJson(alignmentReport(actor, studyId, 'alignment', { judge, bootstrap: 0 })) as ReportJson['alignment'];
    return <AlignmentDashboard studyId={studyId} runs={runs} initial={initial} />;
  },
  'rubric-alignment': ({ actor, studyId, runs, judge, sp }) => {
    // A sample the run does not have falls back to the first.
    const sample = Number(first(sp.sample));
    const read = (s: number) => alignmentReport(actor, studyId, 'rubric-alignment', { judge, sample: s, bootstrap: 0 });
    let report;
    try {
      report = read(Number.isInteger(sample) && sample >= 1 && sample <= 100 ? sample : 1);
    } catch {
      report = read(1);
    }
    return <RubricAlignmentDashboard studyId={studyId} runs={runs} initial={reportJson(report) as ReportJson['rubric-alignment']} />;
  },
};

export default async function AlignmentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const ctx = await analyticsContext((await params).id);
  const report = reportFor(ctx.study.kind, 'alignment') as keyof typeof VIEWS | null;
  if (!report) return <NoReport studyId={ctx.studyId} kind={ctx.study.kind} />;
  const runs = listJudgeRuns(ctx.actor, ctx.studyId);
  if (runs.length === 0) return <NoJudgeRuns studyId={ctx.studyId} />;
  const sp = await searchParams;
  const judge = defaultJudgeRun(runs, first(sp.judge));
  return VIEWS[report]({ ...ctx, sp, runs, judge });
}
