import { Link } from '@/components/ui/link';
import type { FlowListDto, StudyDto } from '@/lib/server/studies/dto';
import { ItemsHeader, Pager, itemsPageHref } from '@/components/study/items-frame';

export type FlowSearch = { decision?: string; reviewer?: string; q?: string; page?: string };

/** A flow-review study's flows with their reviewers and decisions, filterable, 50 a page. */
export function FlowItems({ study, sp, list, page }: { study: StudyDto; sp: FlowSearch; list: FlowListDto; page: number }) {
  const id = study.id;
  const pages = Math.max(1, Math.ceil(list.total / 50));
  const href = (p: number) => itemsPageHref(id, { decision: sp.decision, reviewer: sp.reviewer, q: sp.q }, p);
  return (
    <div className="space-y-4">
      <ItemsHeader studyId={id} studyName={study.name} title="Flows" />
      <form className="flex flex-wrap items-end gap-3 text-sm" role="search">
        <label>
          <span className="block text-slate-600">Decision</span>
          <select name="decision" defaultValue={sp.decision ?? ''} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">Any</option>
            <option value="verify">Verified</option>
            <option value="truncate">Truncated</option>
            <option value="discard">Discarded</option>
            <option value="pending">Not yet reviewed</option>
          </select>
        </label>
        <label>
          <span className="block text-slate-600">Reviewer</span>
          <select name="reviewer" defaultValue={sp.reviewer ?? ''} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">Anyone</option>
            {study.members.map((m) => (
              <option key={m.username} value={m.username}>
                {m.displayName}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="block text-slate-600">Flow id contains</span>
          <input name="q" defaultValue={sp.q ?? ''} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5" />
        </label>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5">
          Filter
        </button>
      </form>
      <p className="text-sm text-slate-600">{list.total.toLocaleString('en-US')} flows</p>
      <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="flow-list">
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th className="px-3 py-2">Flow</th>
            <th className="px-3 py-2 text-right">Steps</th>
            <th className="px-3 py-2">Reviewers</th>
            <th className="px-3 py-2">Decisions</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((r) => (
            <tr key={r.itemId} className="border-t border-slate-100">
              <td className="px-3 py-1.5 font-mono">
                <Link href={`/studies/${id}/items/${r.itemId}`} className="text-accent-700 hover:underline">
                  {r.externalId}
                </Link>
              </td>
              <td className="px-3 py-1.5 text-right tabular-nums">{r.stepCount}</td>
              <td className="px-3 py-1.5">{r.reviewers.join(', ')}</td>
              <td className="px-3 py-1.5">{r.decisions.map((d) => d.replace('truncate:', 'truncate after ')).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} pages={pages} href={href} />
    </div>
  );
}
