import type { Metadata } from 'next';
import type { ReportJson, TiePolicyName } from '@/lib/query/analytics';
import { reportJson } from '@/lib/server/analytics/json';
import { computeReport, reportFor } from '@/lib/server/analytics/report';
import { OVERALL } from '@/lib/validation/common';
import { TIE_POLICIES } from '../_components/format';
import { LeaderboardDashboard, type LeaderboardReportName } from '../_components/leaderboard-dashboard';
import { NoReport } from '../_components/no-report';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Leaderboard' };

export default async function LeaderboardPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const report = reportFor(study.kind, 'leaderboard') as LeaderboardReportName | null;
  if (!report) return <NoReport studyId={studyId} kind={study.kind} />;
  // The options from the address, for a report that reads them (the others drop them): the tie policy, and no
  // bootstrap on the server — the dashboard asks for the intervals once the point estimates are on screen.
  const asked = first((await searchParams).tiePolicy);
  const tiePolicy: TiePolicyName = TIE_POLICIES.find((t) => t.value === asked)?.value ?? 'half';
  const initial = reportJson(computeReport(actor, studyId, report, { tiePolicy, bootstrap: '0' })) as ReportJson[LeaderboardReportName];
  const criteria = [...study.criteria.map((c) => ({ id: c.id, name: c.name, level: c.level })), { id: OVERALL, name: 'Overall' }];
  return <LeaderboardDashboard studyId={studyId} report={report} initial={initial} criteria={criteria} />;
}
