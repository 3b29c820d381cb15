import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { Tone } from '@/components/ui/tones';
import { RUBRIC_ITEM_STATES, type RubricItemListDto, type RubricItemState, type StudyDto } from '@/lib/server/studies/dto';
import { FlaggedFilter, ItemsHeader, Pager, itemsPageHref } from './items-frame';
import type { PairwiseSearch } from './pairwise-items';

const STATE_TONE: Record<RubricItemState, Tone> = { waiting: 'neutral', labelled: 'success', disagreement: 'warning', adjudicated: 'info' };
const STATE_HINT: Record<RubricItemState, string> = {
  waiting: 'Reviews still to come',
  labelled: 'All reviews in; the rule settles every dimension',
  disagreement: 'All reviews in; a dimension waits for the adjudicator',
  adjudicated: 'Every disagreement settled by the adjudicator',
};

/** A rubric study's items for its leads: tutor, dialogue, reviews in, state; filtered and paged on the server. */
export function RubricItems({
  study,
  sp,
  list,
  problem,
}: {
  study: StudyDto;
  sp: PairwiseSearch;
  list: RubricItemListDto | null;
  problem: string | null;
}) {
  const id = study.id;
  const state = typeof sp.state === 'string' ? sp.state : '';
  const q = typeof sp.q === 'string' ? sp.q : '';
  const flagged = sp.flagged === '1' ? '1' : '';
  const href = (p: number) => itemsPageHref(id, { state, q, flagged }, p);
  return (
    <div className="space-y-4">
      <ItemsHeader studyId={id} studyName={study.name} title="Items" />
      <form className="flex flex-wrap items-end gap-3 text-sm" role="search">
        <label>
          <span className="block text-slate-600">State</span>
          <select name="state" defaultValue={state} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">Any</option>
            {RUBRIC_ITEM_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
                {list ? ` (${list.byState[s].toLocaleString('en-US')})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="block text-slate-600">Item, dialogue or tutor contains</span>
          <input name="q" defaultValue={q} maxLength={200} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5" />
        </label>
        <FlaggedFilter checked={flagged === '1'} />
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
            <table className="w-full text-sm" data-testid="rubric-item-list">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th className="px-3 py-2">Item</th>
                  <th className="px-3 py-2">Dialogue</th>
                  <th className="px-3 py-2">Tutor</th>
                  <th className="px-3 py-2 text-right">Reviews</th>
                  <th className="px-3 py-2">State</th>
                  <th className="px-3 py-2 text-right">Disputed dimensions</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r) => (
                  <tr key={r.itemId} className="border-t border-slate-100">
                    <td className="px-3 py-1.5 font-mono break-all">
                      <Link href={`/studies/${id}/items/${r.itemId}`} className="text-accent-700 hover:underline">
                        {r.externalId}
                      </Link>
                    </td>
                    <td className="px-3 py-1.5 font-mono break-all">{r.group ?? '–'}</td>
                    <td className="px-3 py-1.5">{r.source ?? '–'}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums" title="submitted / planned">
                      {r.done} / {r.planned}
                    </td>
                    <td className="px-3 py-1.5">
                      <Badge tone={STATE_TONE[r.state]} title={STATE_HINT[r.state]}>
                        {r.state}
                      </Badge>
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{r.disputed || '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={list.page} pages={list.pages} href={href} />
        </>
      )}
    </div>
  );
}
