import type { Metadata } from 'next';
import type { ReportJson, TiePolicyName } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { computeReport, reportFor } from '@/lib/server/analytics/report';
import { OVERALL } from '@/lib/validation/common';
import { TIE_POLICIES } from '../_components/format';
import { LeaderboardDashboard } from '../_components/leaderboard-dashboard';
import { NoReport } from '../_components/no-report';
import { RubricLeaderboardDashboard } from '../_components/rubric-leaderboard-dashboard';
import { type AnalyticsView, type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Leaderboard' };

/** The dashboard of each report that serves the leaderboard; the study's kind says which report it gets. */
const VIEWS: Record<'leaderboard' | 'rubric-leaderboard', AnalyticsView> = {
  leaderboard: ({ actor, studyId, study, sp }) => {
    const asked = first(sp.tiePolicy);
    const tiePolicy: TiePolicyName = TIE_POLICIES.find((t) => t.value === asked)?.value ?? 'half';
    const initial = reportJson(computeReport(actor, studyId, 'leaderboard', { tiePolicy, bootstrap: '0' })) as ReportJson['leaderboard'];
    const criteria = [...study.criteria.map((c) => ({ id: c.id, name: c.name, level: c.level })), { id: OVERALL, name: 'Overall' }];
    return <LeaderboardDashboard studyId={studyId} initial={initial} criteria={criteria} />;
  },
  'rubric-leaderboard': ({ actor, studyId }) => {
    const initial = reportJson(computeReport(actor, studyId, 'rubric-leaderboard', {})) as ReportJson['rubric-leaderboard'];
    return <RubricLeaderboardDashboard studyId={studyId} initial={initial} />;
  },
};

export default async function LeaderboardPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const ctx = await analyticsContext((await params).id);
  const report = reportFor(ctx.study.kind, 'leaderboard') as keyof typeof VIEWS | null;
  if (!report) return <NoReport studyId={ctx.studyId} kind={ctx.study.kind} />;
  return VIEWS[report]({ ...ctx, sp: await searchParams });
}
