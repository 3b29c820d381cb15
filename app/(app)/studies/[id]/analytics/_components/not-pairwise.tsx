import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';

/** The dashboards are for pairwise and rubric studies; a flow review study has its own report on the study page. */
export function NotPairwise({ studyId, kind }: { studyId: number; kind: string }) {
  return (
    <EmptyState
      title="These dashboards are for pairwise and rubric studies"
      description={`This is a ${kind === 'flow_review' ? 'flow review' : kind} study: there are no pairwise or rubric labels to measure agreement on, and no judge to align. Its decisions, reasons, throughput and payouts are on the study page.`}
      action={
        <Link href={`/studies/${studyId}`} className="text-sm text-accent-700 hover:underline">
          Open the study page
        </Link>
      }
    />
  );
}
