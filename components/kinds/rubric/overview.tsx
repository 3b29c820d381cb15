import Link from 'next/link';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import type { RubricGroundTruthSummaryDto } from '@/lib/server/ground-truth/dto';
import { GroundTruthExports } from '@/components/study/ground-truth-exports';
import { JudgeRunsSection } from '@/components/study/judge-runs-section';
import { Section } from '@/components/study/section';

/** A rubric study's overview for its leads: where the items stand, the ground truth and its export, the judge runs. */
export function RubricOverview({ summary, studyId, runs }: { summary: RubricGroundTruthSummaryDto; studyId: number; runs: JudgeRunDto[] }) {
  return (
    <>
      <Section title="Ground truth">
        <p className="mb-3 text-sm text-slate-600" data-testid="rubric-gt-summary">
          <span data-testid="gt-complete">{summary.complete.toLocaleString('en-US')}</span> of {summary.items.toLocaleString('en-US')} items
          complete: {summary.labels.toLocaleString('en-US')} labels ({summary.adjudicated} adjudicated). {summary.incomplete} item(s) are
          not complete yet (a review or a ruling is missing) and are left out of the export. Each row carries every reviewer&apos;s label
          and the lenient label beside the strict one.
        </p>
        <div className="flex flex-wrap gap-3 text-sm">
          <Link href={`/studies/${studyId}/items`} className="rounded-md border border-slate-300 px-3 py-1.5">
            Items
          </Link>
          <Link href={`/studies/${studyId}/adjudicate`} className="rounded-md border border-slate-300 px-3 py-1.5">
            Adjudicate
          </Link>
          <GroundTruthExports studyId={studyId} />
        </div>
      </Section>
      <JudgeRunsSection studyId={studyId} runs={runs} countLabel="Labels" kind="rubric" />
    </>
  );
}
