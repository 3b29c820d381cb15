import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';

/** Agreement, alignment, leaderboard and hybrid plans are about pairwise labels; other studies have their own report. */
export function NotPairwise({ studyId, kind }: { studyId: number; kind: string }) {
  return (
    <EmptyState
      title="These dashboards are for pairwise studies"
      description={`This is a ${kind === 'flow_review' ? 'flow review' : kind} study: there are no pairwise labels to measure agreement on, and no judge to align. Its decisions, reasons, throughput and payouts are on the study page.`}
      action={
        <Link href={`/studies/${studyId}`} className="text-sm text-accent-700 hover:underline">
          Open the study page
        </Link>
      }
    />
  );
}
