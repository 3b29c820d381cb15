import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { Tone } from '@/components/ui/tones';
import { ITEM_STATES, type ItemState, type PairwiseItemListDto, type StudyDto } from '@/lib/server/studies/dto';
import type { Label } from '@/lib/validation/labels';
import { FlaggedFilter, ItemsHeader, Pager, itemsPageHref } from './items-frame';

export type PairwiseSearch = {
  state?: string | string[];
  q?: string | string[];
  judge?: string | string[];
  flagged?: string | string[];
  page?: string | string[];
};

const STATE_TONE: Record<ItemState, Tone> = { waiting: 'neutral', judged: 'success', disagreement: 'warning', adjudicated: 'info' };
const STATE_HINT: Record<ItemState, string> = {
  waiting: 'Reviews still to come',
  judged: 'All reviews in; nothing for the adjudicator',
  disagreement: 'All reviews in; a disagreement waits for the adjudicator',
  adjudicated: 'Every disagreement settled by the adjudicator',
};
// Labels are from reply a's side.
const OVERALL_TEXT: Record<Label, string> = { win: 'A better', tie: 'Tie', lose: 'B better' };

/**
 * A pairwise study's items for its leads: sources, principles, judgments in, state and the ground-truth overall
 * verdict, filtered and paged on the server (a study can hold 150,000 items).
 */
export function PairwiseItems({
  study,
  sp,
  list,
  problem,
  judgeRuns,
}: {
  study: StudyDto;
  /** The study's judge runs, for the "judge disagrees with ground truth" filter. */
  judgeRuns: string[];
  sp: PairwiseSearch;
  /** The page of items, or null with the reason when a filter was refused. */
  list: PairwiseItemListDto | null;
  problem: string | null;
}) {
  const id = study.id;
  const state = typeof sp.state === 'string' ? sp.state : '';
  const q = typeof sp.q === 'string' ? sp.q : '';
  const judge = typeof sp.judge === 'string' ? sp.judge : '';
  const flagged = sp.flagged === '1' ? '1' : '';
  const href = (p: number) => itemsPageHref(id, { state, q, judge, flagged }, p);
  return (
    <div className="space-y-4">
      <ItemsHeader studyId={id} studyName={study.name} title="Items" />
      <form className="flex flex-wrap items-end gap-3 text-sm" role="search">
        <label>
          <span className="block text-slate-600">State</span>
          <select name="state" defaultValue={state} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">Any</option>
            {ITEM_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
                {list ? ` (${list.byState[s].toLocaleString('en-US')})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="block text-slate-600">Item id contains</span>
          <input name="q" defaultValue={q} maxLength={200} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5" />
        </label>
        {judgeRuns.length > 0 && (
          <label>
            <span className="block text-slate-600">Judge disagrees with ground truth</span>
            <select name="judge" defaultValue={judge} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
              <option value="">Any item</option>
              {judgeRuns.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
        )}
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
            <table className="w-full text-sm" data-testid="pairwise-item-list">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th className="px-3 py-2">Item</th>
                  <th className="px-3 py-2">Principles</th>
                  <th className="px-3 py-2">Reply a</th>
                  <th className="px-3 py-2">Reply b</th>
                  <th className="px-3 py-2 text-right">Judgments</th>
                  <th className="px-3 py-2">State</th>
                  <th className="px-3 py-2">Ground truth (overall)</th>
                  {judge && <th className="px-3 py-2">{judge} (overall)</th>}
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
                    <td className="px-3 py-1.5">
                      {r.principles.length ? r.principles.join(', ') : <span className="text-slate-400">–</span>}
                    </td>
                    <td className="px-3 py-1.5">{r.sourceA ?? '–'}</td>
                    <td className="px-3 py-1.5">{r.sourceB ?? '–'}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums" title="submitted / planned">
                      {r.done} / {r.planned}
                    </td>
                    <td className="px-3 py-1.5">
                      <Badge tone={STATE_TONE[r.state]} title={STATE_HINT[r.state]}>
                        {r.state}
                      </Badge>
                    </td>
                    <td className="px-3 py-1.5" data-testid="ground-truth">
                      {r.overall ? OVERALL_TEXT[r.overall] : '–'}
                    </td>
                    {judge && <td className="px-3 py-1.5">{r.judgeOverall ? OVERALL_TEXT[r.judgeOverall] : '–'}</td>}
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
