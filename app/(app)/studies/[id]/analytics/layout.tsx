import Link from 'next/link';
import { after } from 'next/server';
import type { ReactNode } from 'react';
import { warmReportProcess } from '@/lib/server/analytics/report-process';
import { AnalyticsTabs } from './_components/tabs';
import { analyticsContext } from './_lib/context';
import { GROUND_TRUTH_RULE_NAMES } from '@/lib/validation/studies';

export default async function AnalyticsLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { studyId, study } = await analyticsContext((await params).id);
  // The dashboard asks for its intervals as soon as its estimates are shown: have the report process ready by then.
  after(warmReportProcess);
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
          {/* Only a pairwise study chooses its ground-truth rule; the other kinds have one rule each. */}
          {study.kind === 'pairwise' ? ` · ground truth: ${GROUND_TRUTH_RULE_NAMES[study.groundTruthRule]}` : null}
        </p>
      </div>
      <AnalyticsTabs studyId={studyId} />
      {children}
    </div>
  );
}
