import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { listStudiesView } from '@/lib/server/studies/studies';
import { ProgressBar } from '@/components/ui/progress-bar';
import { kindName } from '@/lib/kinds/names';
import { STUDY_KINDS } from '@/lib/validation/labels';

export const metadata: Metadata = { title: 'Studies' };

const SORTS = [
  ['newest', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['name', 'Name'],
  ['progress', 'Progress'],
  ['status', 'Status'],
] as const;
const field = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

export default async function StudiesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const params = await searchParams;
  const one = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : undefined);
  const query = { q: one('q') ?? '', kind: one('kind') || undefined, status: one('status') || undefined, sort: one('sort') || undefined };
  let studies;
  try {
    studies = listStudiesView(actor, query);
  } catch (e) {
    // A search longer than any study's name asks for a page that does not exist.
    if (e instanceof DomainError && e.code === 'invalid') notFound();
    throw e;
  }
  const filtered = !!(query.q || query.kind || query.status);
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Studies</h1>
        <Link href="/studies/new" className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700">
          New study
        </Link>
      </div>
      <form method="get" className="flex flex-wrap items-end gap-3" role="search" aria-label="Studies">
        <label className="text-sm text-slate-700">
          Search
          <input name="q" defaultValue={query.q} placeholder="Name or id" className={`${field} ml-2 w-56`} />
        </label>
        <label className="text-sm text-slate-700">
          Kind
          <select name="kind" defaultValue={query.kind ?? ''} className={`${field} ml-2`}>
            <option value="">All kinds</option>
            {STUDY_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindName(k)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-700">
          Status
          <select name="status" defaultValue={query.status ?? ''} className={`${field} ml-2`}>
            <option value="">All but archived</option>
            <option value="draft">Draft</option>
            <option value="open">Open</option>
            <option value="closed">Closed</option>
            <option value="archived">Archived</option>
          </select>
        </label>
        <label className="text-sm text-slate-700">
          Sort
          <select name="sort" defaultValue={query.sort ?? 'newest'} className={`${field} ml-2`}>
            {SORTS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
          Apply
        </button>
      </form>
      <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-sm" data-testid="studies-table">
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th className="px-3 py-2">Name</th>
            <th className="px-3 py-2">Kind</th>
            <th className="px-3 py-2">Status</th>
            <th className="px-3 py-2 text-right">Items</th>
            <th className="w-56 px-3 py-2">Reviews submitted</th>
            <th className="px-3 py-2">Reviewers</th>
            <th className="px-3 py-2">Deadline</th>
          </tr>
        </thead>
        <tbody>
          {studies.map((s) => (
            <tr key={s.id} className="border-t border-slate-100 align-top">
              <td className="px-3 py-2">
                <Link href={`/studies/${s.id}`} className="font-medium text-accent-700 hover:underline">
                  {s.name}
                </Link>
              </td>
              <td className="px-3 py-2">{kindName(s.kind)}</td>
              <td className="px-3 py-2">{s.archived ? 'archived' : s.status}</td>
              <td className="px-3 py-2 text-right tabular-nums">{s.items.toLocaleString('en-US')}</td>
              <td className="px-3 py-2">
                {s.assigned > 0 ? (
                  <ProgressBar done={s.submitted} total={s.assigned} />
                ) : (
                  <span className="text-slate-500">no assignments</span>
                )}
              </td>
              <td className="px-3 py-2">{s.reviewers.join(', ')}</td>
              <td className="px-3 py-2 tabular-nums">{s.deadline?.slice(0, 10) ?? ''}</td>
            </tr>
          ))}
          {studies.length === 0 && (
            <tr>
              <td colSpan={7} className="px-3 py-6 text-center text-slate-500">
                {filtered ? 'No study matches.' : 'No studies yet.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
