import type { Tone } from '@/components/ui/tones';
import { ITEM_STATES, type ItemState, type PairwiseItemListDto, type StudyDto } from '@/lib/server/studies/dto';
import type { Label } from '@/lib/validation/labels';
import { ItemLinkCell, ReviewsCell, StateCell, StateItemsList, readItemsSearch, type ItemsSearch } from '@/components/study/items-frame';

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
  sp: ItemsSearch;
  /** The page of items, or null with the reason when a filter was refused. */
  list: PairwiseItemListDto | null;
  problem: string | null;
}) {
  const id = study.id;
  const { state, q, judge, flagged } = readItemsSearch(sp);
  return (
    <StateItemsList
      study={study}
      states={ITEM_STATES}
      filters={{ state, q, judge, flagged }}
      searchLabel="Item id contains"
      moreFilters={
        judgeRuns.length > 0 && (
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
        )
      }
      list={list}
      problem={problem}
      testId="pairwise-item-list"
      head={
        <>
          <th className="px-3 py-2">Item</th>
          <th className="px-3 py-2">Principles</th>
          <th className="px-3 py-2">Reply a</th>
          <th className="px-3 py-2">Reply b</th>
          <th className="px-3 py-2 text-right">Judgments</th>
          <th className="px-3 py-2">State</th>
          <th className="px-3 py-2">Ground truth (overall)</th>
          {judge && <th className="px-3 py-2">{judge} (overall)</th>}
        </>
      }
      rows={(l) =>
        l.rows.map((r) => (
          <tr key={r.itemId} className="border-t border-slate-100">
            <ItemLinkCell studyId={id} item={r} />
            <td className="px-3 py-1.5">{r.principles.length ? r.principles.join(', ') : <span className="text-slate-500">–</span>}</td>
            <td className="px-3 py-1.5">{r.sourceA ?? '–'}</td>
            <td className="px-3 py-1.5">{r.sourceB ?? '–'}</td>
            <ReviewsCell done={r.done} planned={r.planned} />
            <StateCell state={r.state} tone={STATE_TONE} hint={STATE_HINT} />
            <td className="px-3 py-1.5" data-testid="ground-truth">
              {r.overall ? OVERALL_TEXT[r.overall] : '–'}
            </td>
            {judge && <td className="px-3 py-1.5">{r.judgeOverall ? OVERALL_TEXT[r.judgeOverall] : '–'}</td>}
          </tr>
        ))
      }
    />
  );
}
