import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { TimeSeriesChart } from '@/components/charts/time-series';
import { StackedBar } from '@/components/charts/stacked-bar';
import { ProgressBar } from '@/components/ui/progress-bar';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { flowReport } from '@/lib/server/flow-report';
import { getStudy } from '@/lib/server/studies';
import { listAssignablePeople } from '@/lib/server/users';
import { IMPORT_FORMATS } from '@/lib/validation/studies';
import { ImportPanel } from './_components/import-panel';
import { MembersEditor } from './_components/members-editor';
import { StudyActions } from './_components/study-actions';

export const metadata: Metadata = { title: 'Study' };

const money = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');

function Section({ title, children, id }: { title: string; children: React.ReactNode; id?: string }) {
  return (
    <section aria-labelledby={id ?? title} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id ?? title} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default async function StudyPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id < 1) notFound();
  let study;
  try {
    study = getStudy(actor, id);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'not_found') notFound();
    throw e;
  }
  const report = flowReport(actor, id);
  const formats = IMPORT_FORMATS[study.kind as keyof typeof IMPORT_FORMATS] ?? [];
  const exportLink = (what: string, format: string) => `/api/studies/${id}/export?what=${what}&format=${format}`;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">
            {study.kind === 'flow_review' ? 'Flow review' : study.kind} · <span data-testid="study-status">{study.status}</span>
          </p>
          <h1 className="text-2xl font-semibold">{study.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {study.itemCount.toLocaleString('en-US')} items · {study.reviewersPerItem} reviewer(s) per item · pay {money(study.payRateCents / 100)} per
            item · seed {study.seed}
          </p>
        </div>
        <StudyActions studyId={id} status={study.status} />
      </div>

      {study.status === 'draft' && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="Import items">
            <ImportPanel studyId={id} formats={formats} />
          </Section>
          <Section title="Reviewers">
            <MembersEditor studyId={id} people={listAssignablePeople(actor)} chosen={study.members.map((m) => m.username)} />
          </Section>
        </div>
      )}

      {study.status !== 'draft' && (
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
            {report.perDay.length ? (
              <TimeSeriesChart data={report.perDay.map((d) => ({ t: d.day, value: d.n, series: d.username }))} yLabel="Submissions" />
            ) : (
              <p className="text-sm text-slate-500">No submissions yet.</p>
            )}
          </Section>

          <Section title="Flows and exports">
            <div className="flex flex-wrap gap-3 text-sm">
              <Link href={`/studies/${id}/items`} className="rounded-md border border-slate-300 px-3 py-1.5">
                Browse flows and decisions
              </Link>
              <a href={exportLink('flows', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
                Verified flows (JSONL)
              </a>
              <a href={exportLink('flows', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
                Verified flows (CSV)
              </a>
              <a href={exportLink('decisions', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
                Decisions (CSV)
              </a>
              <a href={exportLink('decisions', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
                Decisions (JSONL)
              </a>
            </div>
          </Section>
        </>
      )}
    </div>
  );
}
