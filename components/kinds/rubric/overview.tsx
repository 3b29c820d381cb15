import { Link } from '@/components/ui/link';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import type { RubricGroundTruthSummaryDto } from '@/lib/server/ground-truth/dto';
import { DashboardLinks } from '@/components/study/dashboard-links';
import { GroundTruthExports } from '@/components/study/ground-truth-exports';
import { GroundTruthRule } from '@/components/study/ground-truth-rule';
import { JudgeRunsSection } from '@/components/study/judge-runs-section';
import { ReviewerTable, type ReviewerRow } from '@/components/study/reviewer-table';
import { Section } from '@/components/study/section';

/** How far the reviewers are: what every kind's study page shows in its Progress and Reviewers sections. */
export type ReviewProgress = { assigned: number; submitted: number; reviewers: readonly ReviewerRow[] };

/**
 * A rubric study's overview for its leads, in the pairwise page's shape (issue 26, point 3): progress with the
 * dashboards, the reviewers and their payout, the judge runs, then the ground truth and its export.
 */
export function RubricOverview({
  summary,
  progress,
  studyId,
  runs,
}: {
  summary: RubricGroundTruthSummaryDto;
  progress: ReviewProgress;
  studyId: number;
  runs: JudgeRunDto[];
}) {
  return (
    <>
      <Section title="Progress">
        <ProgressBar done={progress.submitted} total={progress.assigned} label="Reviews submitted" />
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-xs tracking-wide text-slate-500 uppercase">Items with ground truth</dt>
            <dd className="text-2xl font-semibold tabular-nums">
              <span data-testid="gt-complete">{summary.complete.toLocaleString('en-US')}</span>{' '}
              <span className="text-sm font-normal text-slate-500">of {summary.items.toLocaleString('en-US')}</span>
            </dd>
          </div>
          <div>
            <dt className="text-xs tracking-wide text-slate-500 uppercase">Items not complete</dt>
            <dd className="text-2xl font-semibold tabular-nums">{summary.incomplete.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt className="text-xs tracking-wide text-slate-500 uppercase">Rulings</dt>
            <dd className="text-2xl font-semibold tabular-nums">{summary.adjudicated.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt className="text-xs tracking-wide text-slate-500 uppercase">Ground truth rule</dt>
            <dd className="mt-1">
              <GroundTruthRule studyId={studyId} rule={summary.rule} />
            </dd>
          </div>
        </dl>
        <DashboardLinks studyId={studyId} />
        <p className="mt-3 text-sm text-slate-600">
          <Link href={`/studies/${studyId}/items`} className="text-accent-700 hover:underline">
            Browse the items
          </Link>{' '}
          ·{' '}
          <Link href={`/studies/${studyId}/adjudicate`} className="text-accent-700 hover:underline">
            Open the adjudication queue
          </Link>
        </p>
      </Section>

      <Section title="Reviewers">
        <ReviewerTable reviewers={progress.reviewers} />
      </Section>

      <JudgeRunsSection studyId={studyId} runs={runs} countLabel="Labels" kind="rubric" />

      <Section title="Ground truth">
        <p className="mb-3 text-sm text-slate-600" data-testid="rubric-gt-summary">
          {summary.complete.toLocaleString('en-US')} of {summary.items.toLocaleString('en-US')} items complete:{' '}
          {summary.labels.toLocaleString('en-US')} labels ({summary.adjudicated} adjudicated). {summary.incomplete} item(s) are not complete
          yet (a review or a ruling is missing) and are left out of the export. Each row carries every reviewer&apos;s label and the lenient
          label beside the strict one.
        </p>
        <div className="flex flex-wrap gap-3 text-sm">
          <GroundTruthExports studyId={studyId} />
        </div>
      </Section>
    </>
  );
}
