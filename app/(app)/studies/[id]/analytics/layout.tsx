import { Link } from '@/components/ui/link';
import { after } from 'next/server';
import type { ReactNode } from 'react';
import { warmReportProcess } from '@/lib/server/analytics/report-process';
import { Alert } from '@/components/ui/alert';
import { annotatorExclusions } from '@/lib/server/analytics/annotators-exclusions';
import { AnalyticsTabs } from './_components/tabs';
import { analyticsContext } from './_lib/context';
import { GROUND_TRUTH_RULE_NAMES } from '@/lib/validation/studies';
import { studyKind } from '@/lib/kinds/registry';

export default async function AnalyticsLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  // The dashboard asks for its intervals as soon as its estimates are shown: have the report process ready by then.
  after(warmReportProcess);
  // Every dashboard says what the study's exclusions leave out of it (decision 0029).
  const excluded = annotatorExclusions(actor, studyId);
  return (
    <div className="space-y-5">
      <div>
        <p className="text-sm">
          <Link href={`/studies/${studyId}`} className="text-accent-700 hover:underline">
            ← Back to {study.name}
          </Link>
        </p>
        <h1 className="mt-1 text-2xl font-semibold">Dashboards</h1>
        <p className="text-sm text-slate-600">
          {study.name} · {study.itemCount.toLocaleString('en-US')} items
          {/* A kind with ground truth settles it by the rule the study chose (a flow review has none). */}
          {studyKind(study.kind).groundTruth ? ` · ground truth: ${GROUND_TRUTH_RULE_NAMES[study.groundTruthRule]}` : null}
        </p>
      </div>
      <AnalyticsTabs studyId={studyId} />
      {excluded.annotators.length ? (
        <Alert tone="warning" data-testid="excluded-labels">
          {excluded.labels.toLocaleString('en-US')} label(s) of excluded annotators are left out of these reports and the ground truth:{' '}
          {excluded.annotators.map((a) => `${a.username} (${a.labels.toLocaleString('en-US')})`).join(', ')}.
        </Alert>
      ) : null}
      {children}
    </div>
  );
}
