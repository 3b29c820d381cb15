import { Link } from '@/components/ui/link';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import type { PairwiseReportDto } from '@/lib/server/studies/dto';
import { GroundTruthRule } from '@/components/study/ground-truth-rule';
import { ImportPanel } from '@/app/(app)/studies/[id]/_components/import-panel';
import { GroundTruthExports } from '@/components/study/ground-truth-exports';
import { JudgeRunsSection } from '@/components/study/judge-runs-section';
import { DashboardLinks } from '@/components/study/dashboard-links';
import { ReviewerTable } from '@/components/study/reviewer-table';
import { Section, pct } from '@/components/study/section';
import { formatIdsOf } from '@/lib/kinds/import-formats';

export function PairwiseOverview({ report, studyId, runs }: { report: PairwiseReportDto; studyId: number; runs: JudgeRunDto[] }) {
  const gt = report.groundTruth;
  return (
    <>
      <Section title="Progress">
        <ProgressBar done={report.submitted} total={report.assigned} label="Judgments submitted" />
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Items with ground truth</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid="gt-complete">
              {gt.complete.toLocaleString('en-US')}{' '}
              <span className="text-sm font-normal text-slate-500">of {gt.items.toLocaleString('en-US')}</span>
            </dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Items for the adjudicator</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid="disagreeing">
              {report.adjudication.disagreeingItems}
            </dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Adjudication backlog</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid="backlog">
              {report.adjudication.open}
            </dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Ground truth rule</dt>
            <dd className="mt-1">
              <GroundTruthRule studyId={studyId} rule={gt.rule} />
            </dd>
          </div>
        </dl>
        <DashboardLinks studyId={studyId} />
        <p className="mt-3 text-sm text-slate-600">
          <Link href={`/studies/${studyId}/items`} className="text-accent-700 hover:underline">
            Browse the items
          </Link>{' '}
          · Adjudicator: {report.adjudication.adjudicator ?? 'none named (leads can adjudicate)'} ·{' '}
          <Link href={`/studies/${studyId}/adjudicate`} className="text-accent-700 hover:underline">
            Open the adjudication queue
          </Link>
        </p>
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Reviewers">
          <ReviewerTable reviewers={report.reviewers} />
          {report.sets.length > 0 && (
            <table className="mt-4 w-full text-sm" data-testid="set-table">
              <thead className="text-left text-slate-500">
                <tr>
                  <th className="py-1">Set</th>
                  <th className="py-1">Reviewers</th>
                  <th className="py-1 text-right">Items complete</th>
                </tr>
              </thead>
              <tbody>
                {report.sets.map((s) => (
                  <tr key={s.set} className="border-t border-slate-100">
                    <td className="py-1">{s.set}</td>
                    <td className="py-1">{s.reviewers.join(' + ')}</td>
                    <td className="py-1 text-right tabular-nums">
                      {s.complete} / {s.items}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
        <Section title="Agreement per criterion">
          {report.agreement.length === 0 ? (
            <p className="text-sm text-slate-500">No item has two labels on a criterion yet.</p>
          ) : (
            <>
              <table className="w-full text-sm" data-testid="agreement-table">
                <thead className="text-left text-slate-500">
                  <tr>
                    <th className="py-1">Criterion</th>
                    <th className="py-1 text-right">Items</th>
                    <th className="py-1 text-right">Percent agreement</th>
                    <th className="py-1 text-right">All agree</th>
                  </tr>
                </thead>
                <tbody>
                  {report.agreement.map((a) => (
                    <tr key={a.criterion} className="border-t border-slate-100">
                      <td className="py-1">{a.name}</td>
                      <td className="py-1 text-right tabular-nums">{a.items}</td>
                      <td className="py-1 text-right tabular-nums" data-testid="percent-agreement">
                        {a.percentAgreement === null ? '–' : `${(a.percentAgreement * 100).toFixed(1)} %`}
                      </td>
                      <td className="py-1 text-right tabular-nums">{pct(a.agreed, a.items)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="mt-2 text-xs text-slate-500">
                Items: items with two or more labels on the criterion, before adjudication. Percent agreement: the mean over those items of
                the share of pairs of labels that agree — the same figure as on the Agreement dashboard. All agree: the share of those items
                where every label is the same (equal to percent agreement with two reviewers per item, lower with more).
              </p>
            </>
          )}
        </Section>
      </div>

      <JudgeRunsSection studyId={studyId} runs={runs} countLabel="Verdicts" kind="pairwise">
        <ImportPanel studyId={studyId} formats={formatIdsOf('pairwise', 'judge', { upload: true })} what="judge" />
      </JudgeRunsSection>

      <Section title="Ground truth">
        <p className="mb-3 text-sm text-slate-600">
          {gt.labels.toLocaleString('en-US')} labels on {gt.complete.toLocaleString('en-US')} items ({gt.adjudicated} adjudicated).{' '}
          {gt.incomplete} item(s) are not complete yet and are left out of the export.
        </p>
        <div className="flex flex-wrap gap-3 text-sm">
          <GroundTruthExports studyId={studyId} />
        </div>
      </Section>
    </>
  );
}
