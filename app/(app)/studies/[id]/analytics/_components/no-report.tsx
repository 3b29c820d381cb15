import { Link } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/empty-state';
import { kindName } from '@/lib/kinds/names';
import type { StudyKind } from '@/lib/validation/labels';

/**
 * A study whose kind offers no report for this dashboard (its reports facet names none): a flow review has its own
 * report on the study page.
 */
export function NoReport({ studyId, kind }: { studyId: number; kind: StudyKind }) {
  return (
    <EmptyState
      title="These dashboards are for pairwise and rubric studies"
      description={`This is a ${kindName(kind).toLowerCase()} study: there are no pairwise or rubric labels to measure agreement on, and no judge to align. Its decisions, reasons, throughput and payouts are on the study page.`}
      action={
        <Link href={`/studies/${studyId}`} className="text-sm text-accent-700 hover:underline">
          Open the study page
        </Link>
      }
    />
  );
}
