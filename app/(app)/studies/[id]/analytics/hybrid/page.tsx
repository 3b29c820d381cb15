import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { hybridReport } from '@/lib/server/analytics/hybrid';
import { reportJson } from '@/lib/server/analytics/json';
import { reportFor } from '@/lib/server/analytics/report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { defaultJudgeRun } from '@/components/study/judge-run-order';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { listAssignablePeople } from '@/lib/server/accounts/users';
import { OVERALL } from '@/lib/validation/common';
import { HybridDashboard } from '../_components/hybrid-dashboard';
import { NoJudgeRuns } from '../_components/no-judge-runs';
import { NoReport } from '../_components/no-report';
import { RubricHybridDashboard } from '../_components/rubric-hybrid-dashboard';
import { type AnalyticsView, type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Hybrid review plan' };

/** ε or δ from the address when it is a probability strictly between 0 and 1, else the default 5 %. */
const level = (v: string | string[] | undefined) => {
  const x = Number(first(v));
  return Number.isFinite(x) && x > 0 && x < 1 ? x : 0.05;
};

type View = (ctx: Parameters<AnalyticsView>[0] & { runs: JudgeRunDto[] }) => ReturnType<AnalyticsView>;

/** The dashboard of each report that serves the hybrid plan; the study's kind says which report it gets. */
const VIEWS: Record<'hybrid' | 'rubric-hybrid', View> = {
  'rubric-hybrid': ({ actor, studyId, study, sp, runs }) => {
    const dimensions = (study.dimensions ?? []).map((c) => c.id);
    const judge = defaultJudgeRun(runs, first(sp.judge));
    const criterion = dimensions.find((d) => d === first(sp.criterion)) ?? dimensions[0];
    const wanted = Number(first(sp.target));
    const target = Number.isFinite(wanted) && wanted > 0 && wanted <= 1 ? wanted : 0.95;
    const levels = { epsilon: level(sp.epsilon), delta: level(sp.delta) };
    const read = (lenient: boolean) => hybridReport(actor, studyId, { judge, criterion, target, lenient, ...levels }, 'rubric');
    let report;
    try {
      report = read(first(sp.lenient) === 'true');
    } catch {
      report = read(false); // the dimension has no lenient map
    }
    return (
      <RubricHybridDashboard
        studyId={studyId}
        runs={runs}
        dimensions={(study.dimensions ?? []).map((d) => ({
          id: d.id,
          name: d.name,
          hasLenient: !!d.lenient && Object.keys(d.lenient).length > 0,
        }))}
        initial={reportJson(report) as ReportJson['rubric-hybrid']}
        people={listAssignablePeople(actor)}
        studyOpen={study.status === 'open'}
      />
    );
  },
  hybrid: ({ actor, studyId, study, sp, runs }) => {
    const criteria = [{ id: OVERALL, name: 'Overall' }, ...study.criteria.map((c) => ({ id: c.id, name: c.name }))];
    // Options from the address are used only when valid; anything else falls back to the defaults.
    const judge = defaultJudgeRun(runs, first(sp.judge));
    const criterion = criteria.find((c) => c.id === first(sp.criterion))?.id ?? OVERALL;
    const asked = Number(first(sp.target));
    const target = Number.isFinite(asked) && asked > 0 && asked <= 1 ? asked : 0.95;
    const initial = reportJson(
      hybridReport(actor, studyId, { judge, criterion, target, epsilon: level(sp.epsilon), delta: level(sp.delta) }, 'pairwise'),
    ) as ReportJson['hybrid'];
    return (
      <HybridDashboard
        studyId={studyId}
        runs={runs}
        criteria={criteria}
        initial={initial}
        people={listAssignablePeople(actor)}
        studyOpen={study.status === 'open'}
      />
    );
  },
};

export default async function HybridPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const ctx = await analyticsContext((await params).id);
  const report = reportFor(ctx.study.kind, 'hybrid') as keyof typeof VIEWS | null;
  if (!report) return <NoReport studyId={ctx.studyId} kind={ctx.study.kind} />;
  const runs = listJudgeRuns(ctx.actor, ctx.studyId);
  if (runs.length === 0) return <NoJudgeRuns studyId={ctx.studyId} />;
  return VIEWS[report]({ ...ctx, sp: await searchParams, runs });
}
