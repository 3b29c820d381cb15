import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';

/**
 * Agreement, alignment, leaderboard and hybrid plans are for pairwise and rubric studies, the bias report for pairwise
 * studies only; other studies have their own report.
 */
export function NotPairwise({ studyId, kind }: { studyId: number; kind: string }) {
  if (kind === 'rubric') {
    return (
      <EmptyState
        title="Bias is measured on pairwise comparisons"
        description="Position and length bias compare two replies shown side by side; a rubric study labels one reply at a time. Its agreement, alignment, leaderboard and hybrid plan are on the other tabs."
      />
    );
  }
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
