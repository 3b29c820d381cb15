import type { Metadata } from 'next';
import type { ReportJson } from '@/lib/query/analytics';
import { DomainError } from '@/lib/server/errors';
import { hybridChoices } from '@/lib/server/analytics/hybrid';
import { reportJson } from '@/lib/server/analytics/json';
import { type ReportOptions, computeReport, reportFor } from '@/lib/server/analytics/report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { defaultJudgeRun } from '@/components/study/judge-run-order';
import { listAssignablePeople } from '@/lib/server/accounts/users';
import { HybridDashboard, type HybridReportName } from '../_components/hybrid-dashboard';
import { NoJudgeRuns } from '../_components/no-judge-runs';
import { NoReport } from '../_components/no-report';
import { type SearchParams, analyticsContext, first } from '../_lib/context';

export const metadata: Metadata = { title: 'Hybrid review plan' };

/** ε or δ from the address when it is a probability strictly between 0 and 1, else the default 5 %. */
const level = (v: string | string[] | undefined) => {
  const x = Number(first(v));
  return String(Number.isFinite(x) && x > 0 && x < 1 ? x : 0.05);
};

export default async function HybridPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  // The study's kind says which report serves the plan; one dashboard draws either.
  const report = reportFor(study.kind, 'hybrid') as HybridReportName | null;
  if (!report) return <NoReport studyId={studyId} kind={study.kind} />;
  const runs = listJudgeRuns(actor, studyId);
  if (runs.length === 0) return <NoJudgeRuns studyId={studyId} />;
  const sp = await searchParams;
  const choices = hybridChoices(actor, studyId);
  // Options from the address are used only when valid; anything else falls back to the defaults.
  const asked = Number(first(sp.target));
  const options: ReportOptions = {
    judge: defaultJudgeRun(runs, first(sp.judge)),
    criterion: choices.entries.find((e) => e.id === first(sp.criterion))?.id,
    target: String(Number.isFinite(asked) && asked > 0 && asked <= 1 ? asked : 0.95),
    epsilon: level(sp.epsilon),
    delta: level(sp.delta),
    lenient: first(sp.lenient) === 'true' ? 'true' : undefined,
  };
  let initial;
  try {
    initial = computeReport(actor, studyId, report, options);
  } catch (e) {
    // Lenient folding of an entry without a lenient map: the strict plan.
    if (!(e instanceof DomainError) || !options.lenient) throw e;
    initial = computeReport(actor, studyId, report, { ...options, lenient: undefined });
  }
  return (
    <HybridDashboard
      studyId={studyId}
      report={report}
      runs={runs}
      choices={choices}
      initial={reportJson(initial) as ReportJson[HybridReportName]}
      people={listAssignablePeople(actor)}
      studyOpen={study.status === 'open'}
    />
  );
}
