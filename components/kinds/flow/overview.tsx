import { Link } from '@/components/ui/link';
import { StackedBar } from '@/components/charts/stacked-bar';
import { TimeSeriesChart } from '@/components/charts/time-series';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { FlowReportDto } from '@/lib/server/studies/dto';
import { Section, exportLink, money, pct } from '@/components/study/section';

export function FlowOverview({ report, studyId }: { report: FlowReportDto; studyId: number }) {
  const id = studyId;
  // A chart over time needs two or more days to draw a line; one day is said in words.
  const days = [...new Set(report.perDay.map((d) => d.day))];
  const perDayTotal = report.perDay.reduce((sum, d) => sum + d.n, 0);
  return (
    <>
      <Section title="Progress">
        <ProgressBar done={report.submitted} total={report.assigned} label="Reviews submitted" />
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="decision-counts">
          {(
            [
              ['Verified', report.verified],
              ['Truncated', report.truncated],
              ['Discarded', report.discarded],
              ['Pending', report.assigned - report.submitted],
            ] as const
          ).map(([label, n]) => (
            <div key={label}>
              <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid={`count-${label.toLowerCase()}`}>
                {n.toLocaleString('en-US')}
                {label !== 'Pending' && <span className="ml-2 text-sm font-normal text-slate-500">{pct(n, report.submitted)}</span>}
              </dd>
            </div>
          ))}
        </dl>
        {report.submitted > 0 && (
          <div className="mt-4">
            <StackedBar
              parts={[
                { label: 'Verified', value: report.verified, tone: 'success' },
                { label: 'Truncated', value: report.truncated, tone: 'warning' },
                { label: 'Discarded', value: report.discarded, tone: 'danger' },
              ]}
            />
          </div>
        )}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Reviewers and payouts">
          <table className="w-full text-sm" data-testid="reviewer-table">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="py-1">Reviewer</th>
                <th className="py-1 text-right">Done</th>
                <th className="py-1 text-right">Active h</th>
                <th className="py-1 text-right">Items/h</th>
                <th className="py-1 text-right">Payout</th>
              </tr>
            </thead>
            <tbody>
              {report.reviewers.map((r) => (
                <tr key={r.username} className="border-t border-slate-100">
                  <td className="py-1">{r.displayName}</td>
                  <td className="py-1 text-right tabular-nums">
                    {r.submitted} / {r.assigned}
                  </td>
                  <td className="py-1 text-right tabular-nums">{(r.activeSeconds / 3600).toFixed(2)}</td>
                  <td className="py-1 text-right tabular-nums">{r.itemsPerHour ?? '–'}</td>
                  <td className="py-1 text-right tabular-nums">{money(r.payout)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
        <Section title="Discard reasons">
          {Object.keys(report.discardReasons).length === 0 ? (
            <p className="text-sm text-slate-500">No flow discarded yet.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {Object.entries(report.discardReasons).map(([reason, n]) => (
                <li key={reason} className="flex justify-between">
                  <span>{reason.replace(/_/g, ' ')}</span>
                  <span className="tabular-nums">{n}</span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <Section title="Submissions per day">
        {days.length > 1 ? (
          <TimeSeriesChart data={report.perDay.map((d) => ({ t: d.day, value: d.n, series: d.username }))} yLabel="Submissions" />
        ) : days.length === 1 ? (
          <p className="text-sm text-slate-600" data-testid="single-day">
            {perDayTotal.toLocaleString('en-US')} submission{perDayTotal === 1 ? '' : 's'}, all on {days[0]}; the chart appears once there
            are submissions on two or more days.
          </p>
        ) : (
          <p className="text-sm text-slate-500">No submissions yet.</p>
        )}
      </Section>

      <Section title="Flows and exports">
        <div className="flex flex-wrap gap-3 text-sm">
          <Link href={`/studies/${id}/items`} className="rounded-md border border-slate-300 px-3 py-1.5">
            Browse flows and decisions
          </Link>
          <a href={exportLink(id, 'flows', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Verified flows (JSONL)
          </a>
          <a href={exportLink(id, 'flows', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Verified flows (CSV)
          </a>
          <a
            href={`${exportLink(id, 'flows', 'jsonl')}&include-incomplete=1`}
            className="rounded-md border border-slate-300 px-3 py-1.5"
            title="Also the flows not every reviewer has submitted yet, marked complete: false"
            download
          >
            Verified flows with incomplete ones (JSONL)
          </a>
          <a href={exportLink(id, 'decisions', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Decisions (CSV)
          </a>
          <a href={exportLink(id, 'decisions', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Decisions (JSONL)
          </a>
        </div>
        <p className="mt-2 text-xs text-slate-500">
          The verified flows leave out flows that not every reviewer has submitted yet; the export with incomplete ones includes them,
          marked <code>complete: false</code>.
        </p>
      </Section>
    </>
  );
}
