import { Link } from '@/components/ui/link';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { Tone } from '@/components/ui/tones';

/** The link to one page of a study's items list, keeping the filters that are set. */
export function itemsPageHref(studyId: number, filters: Record<string, string | undefined>, page: number): string {
  const u = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) u.set(key, value);
  u.set('page', String(page));
  return `/studies/${studyId}/items?${u}`;
}

/** The back link to the study and the list's title, shared by the flow and pairwise lists. */
export function ItemsHeader({ studyId, studyName, title }: { studyId: number; studyName: string; title: string }) {
  return (
    <>
      <p className="text-sm">
        <Link href={`/studies/${studyId}`} className="text-accent-700 hover:underline">
          ← {studyName}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{title}</h1>
    </>
  );
}

/** Previous / next links under a list paged on the server. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  return (
    <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
      {page > 1 && <Link href={href(page - 1)}>← Previous</Link>}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages && <Link href={href(page + 1)}>Next →</Link>}
    </nav>
  );
}

/** The "only flagged items" filter of the pairwise and rubric lists (`flagged=1` in the URL). */
export function FlaggedFilter({ checked }: { checked: boolean }) {
  return (
    <label className="flex items-center gap-2 self-center pt-5">
      <input type="checkbox" name="flagged" value="1" defaultChecked={checked} className="size-4" />
      <span className="text-slate-600">Only flagged by a reviewer</span>
    </label>
  );
}

/** The filters of a pairwise or rubric items list, as the URL carries them. */
export type ItemsSearch = {
  state?: string | string[];
  q?: string | string[];
  judge?: string | string[];
  flagged?: string | string[];
  page?: string | string[];
};

/** The filters set in the URL; a filter given twice counts as not set. */
export function readItemsSearch(sp: ItemsSearch) {
  return {
    state: typeof sp.state === 'string' ? sp.state : '',
    q: typeof sp.q === 'string' ? sp.q : '',
    judge: typeof sp.judge === 'string' ? sp.judge : '',
    flagged: sp.flagged === '1' ? '1' : '',
  };
}

type StateList<S extends string> = { total: number; page: number; pages: number; byState: Record<S, number> };

/**
 * An items list of a study whose items go through states (pairwise, rubric), filtered and paged on the server: the
 * filters (state with its counts, text, the list's own, flagged), the reason a filter was refused, the count, the
 * table and the pager.
 */
export function StateItemsList<S extends string, L extends StateList<S>>({
  study,
  states,
  filters,
  searchLabel,
  moreFilters,
  problem,
  list,
  testId,
  head,
  rows,
}: {
  study: { id: number; name: string };
  states: readonly S[];
  /** The filters set, in the order the page links carry them. */
  filters: { state: string; q: string; flagged: string } & Record<string, string>;
  /** The caption of the text filter: what it searches. */
  searchLabel: string;
  moreFilters?: ReactNode;
  /** The page of items, or null with the reason when a filter was refused. */
  list: L | null;
  problem: string | null;
  testId: string;
  /** The header cells of the table. */
  head: ReactNode;
  rows: (list: L) => ReactNode;
}) {
  const href = (p: number) => itemsPageHref(study.id, filters, p);
  return (
    <div className="space-y-4">
      <ItemsHeader studyId={study.id} studyName={study.name} title="Items" />
      <form className="flex flex-wrap items-end gap-3 text-sm" role="search">
        <label>
          <span className="block text-slate-600">State</span>
          <select name="state" defaultValue={filters.state} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">Any</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
                {list ? ` (${list.byState[s].toLocaleString('en-US')})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="block text-slate-600">{searchLabel}</span>
          <input name="q" defaultValue={filters.q} maxLength={200} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5" />
        </label>
        {moreFilters}
        <FlaggedFilter checked={filters.flagged === '1'} />
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5">
          Filter
        </button>
      </form>
      {problem && (
        <Alert tone="error" title="These filters cannot be applied.">
          <p>{problem}</p>
        </Alert>
      )}
      {list && (
        <>
          <p className="text-sm text-slate-600" data-testid="item-count">
            {list.total.toLocaleString('en-US')} {list.total === 1 ? 'item' : 'items'}
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full text-sm" data-testid={testId}>
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>{head}</tr>
              </thead>
              <tbody>{rows(list)}</tbody>
            </table>
          </div>
          <Pager page={list.page} pages={list.pages} href={href} />
        </>
      )}
    </div>
  );
}

/** The first cells of an item's row: its id, linked to the item's page. */
export function ItemLinkCell({ studyId, item }: { studyId: number; item: { itemId: number; externalId: string } }) {
  return (
    <td className="px-3 py-1.5 font-mono break-all">
      <Link href={`/studies/${studyId}/items/${item.itemId}`} className="text-accent-700 hover:underline">
        {item.externalId}
      </Link>
    </td>
  );
}

/** The reviews of an item in (submitted / planned). */
export function ReviewsCell({ done, planned }: { done: number; planned: number }) {
  return (
    <td className="px-3 py-1.5 text-right tabular-nums" title="submitted / planned">
      {done} / {planned}
    </td>
  );
}

/** An item's state, coloured, with what it means on hover. */
export function StateCell<S extends string>({ state, tone, hint }: { state: S; tone: Record<S, Tone>; hint: Record<S, string> }) {
  return (
    <td className="px-3 py-1.5">
      <Badge tone={tone[state]} title={hint[state]}>
        {state}
      </Badge>
    </td>
  );
}
