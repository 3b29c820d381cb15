import type { Metadata } from 'next';
import type { ReportJson, TiePolicyName } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { leaderboardReport } from '@/lib/server/analytics/leaderboard';
import { OVERALL } from '@/lib/validation/common';
import { TIE_POLICIES } from '../_components/format';
import { LeaderboardDashboard } from '../_components/leaderboard-dashboard';
import { NotPairwise } from '../_components/not-pairwise';
import { RubricLeaderboardDashboard } from '../_components/rubric-leaderboard-dashboard';
import { rubricLeaderboardReport } from '@/lib/server/analytics/rubric-leaderboard';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Leaderboard' };

export default async function LeaderboardPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (study.kind === 'rubric') {
    const rubric = reportJson(rubricLeaderboardReport(actor, studyId)) as ReportJson['rubric-leaderboard'];
    return <RubricLeaderboardDashboard studyId={studyId} initial={rubric} />;
  }
  if (study.kind !== 'pairwise') return <NotPairwise studyId={studyId} kind={study.kind} />;
  const asked = first((await searchParams).tiePolicy);
  const tiePolicy: TiePolicyName = TIE_POLICIES.find((t) => t.value === asked)?.value ?? 'half';
  const initial = reportJson(leaderboardReport(actor, studyId, { tiePolicy, bootstrap: 0 })) as ReportJson['leaderboard'];
  const criteria = [...study.criteria.map((c) => ({ id: c.id, name: c.name })), { id: OVERALL, name: 'Overall' }];
  return <LeaderboardDashboard studyId={studyId} initial={initial} criteria={criteria} />;
}
