import { Link } from '@/components/ui/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import type { ItemDetailDto, ItemReviewerDto, ItemRevisionDto } from '@/lib/server/studies/dto';
import { ReviewerRemarks } from './reviewer-remarks';

/** The part of an item's page every kind with a queue position shares: where it sits among the study's items. */
type ItemPlace = Pick<Exclude<ItemDetailDto, { kind: 'rubric' }>, 'studyId' | 'studyName' | 'position' | 'externalId' | 'previousId' | 'nextId'>;

export const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '–');

/** An item's page for its leads: the way back to the items and on to the neighbours, its title, then the kind's body. */
export function ItemPageFrame({ detail, children }: { detail: ItemPlace; children: ReactNode }) {
  const { studyId } = detail;
  return (
    <div className="space-y-6">
      <nav aria-label="Items" className="flex items-center gap-4 text-sm">
        <Link href={`/studies/${studyId}/items`} className="text-accent-700 hover:underline">
          ← All items of {detail.studyName}
        </Link>
        {detail.previousId && <Link href={`/studies/${studyId}/items/${detail.previousId}`}>Previous item</Link>}
        {detail.nextId && <Link href={`/studies/${studyId}/items/${detail.nextId}`}>Next item</Link>}
      </nav>
      <h1 className="text-2xl font-semibold">
        Item {detail.position} <span className="font-mono text-base font-normal text-slate-500">{detail.externalId}</span>
      </h1>
      {children}
    </div>
  );
}

/**
 * Every reviewer of an item with their revisions. The kind says what a revision changed (`describe`) and what
 * else to say of a reviewer (`aside`: in a pairwise study, the order in which they saw the replies).
 */
export function ItemReviewers({
  reviewers,
  describe,
  aside,
}: {
  reviewers: ItemReviewerDto[];
  describe: (previous: ItemRevisionDto | undefined, revision: ItemRevisionDto) => string;
  aside?: (reviewer: ItemReviewerDto) => ReactNode;
}) {
  if (!reviewers.length) return <p className="text-sm text-slate-500">No reviewer is assigned to this item.</p>;
  return (
    <ol className="space-y-3" data-testid="item-reviewers">
      {reviewers.map((r) => (
        <li key={r.slot} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <p className="flex flex-wrap items-baseline gap-2">
            <span className="font-medium">{r.displayName}</span>
            <span className="text-slate-500">({r.username})</span>
            <Badge tone={r.state === 'submitted' ? 'success' : 'neutral'}>{r.state}</Badge>
            {aside?.(r)}
            <span className="text-slate-500">· active {r.activeSeconds} s</span>
          </p>
          <ReviewerRemarks username={r.username} remarks={r.remarks} />
          {r.revisions.length > 0 ? (
            <ol className="mt-2 space-y-1" aria-label={`Revisions of ${r.username}`}>
              {r.revisions.map((v, i) => (
                <li key={v.revision} className="text-slate-700">
                  <span className="font-mono text-xs text-slate-500">
                    rev {v.revision} · {when(v.at)}
                  </span>{' '}
                  {describe(r.revisions[i - 1], v)}
                  {i === r.revisions.length - 1 && r.state === 'pending' && <span className="ml-1 text-amber-700">(undone)</span>}
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-1 text-slate-500">Nothing submitted yet.</p>
          )}
        </li>
      ))}
    </ol>
  );
}
