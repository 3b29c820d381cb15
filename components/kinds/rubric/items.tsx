import type { Tone } from '@/components/ui/tones';
import { RUBRIC_ITEM_STATES, type RubricItemListDto, type RubricItemState, type StudyDto } from '@/lib/server/studies/dto';
import { ItemLinkCell, ReviewsCell, StateCell, StateItemsList, readItemsSearch, type ItemsSearch } from '@/components/study/items-frame';

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
  sp: ItemsSearch;
  list: RubricItemListDto | null;
  problem: string | null;
}) {
  const id = study.id;
  const { state, q, flagged } = readItemsSearch(sp);
  return (
    <StateItemsList
      study={study}
      states={RUBRIC_ITEM_STATES}
      filters={{ state, q, flagged }}
      searchLabel="Item, dialogue or tutor contains"
      list={list}
      problem={problem}
      testId="rubric-item-list"
      head={
        <>
          <th className="px-3 py-2">Item</th>
          <th className="px-3 py-2">Dialogue</th>
          <th className="px-3 py-2">Tutor</th>
          <th className="px-3 py-2 text-right">Reviews</th>
          <th className="px-3 py-2">State</th>
          <th className="px-3 py-2 text-right">Disputed dimensions</th>
        </>
      }
      rows={(l) =>
        l.rows.map((r) => (
          <tr key={r.itemId} className="border-t border-slate-100">
            <ItemLinkCell studyId={id} item={r} />
            <td className="px-3 py-1.5 font-mono break-all">{r.group ?? '–'}</td>
            <td className="px-3 py-1.5">{r.source ?? '–'}</td>
            <ReviewsCell done={r.done} planned={r.planned} />
            <StateCell state={r.state} tone={STATE_TONE} hint={STATE_HINT} />
            <td className="px-3 py-1.5 text-right tabular-nums">{r.disputed || '–'}</td>
          </tr>
        ))
      }
    />
  );
}
