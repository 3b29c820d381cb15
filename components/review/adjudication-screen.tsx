'use client';

import { useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import type { Shortcut } from '@/components/ui/shortcut-help';
import { adjudicationItemKey, adjudicationQueueOptions } from '@/lib/query/review';
import type { AdjudicationQueueDto } from '@/lib/server/review/dto';

type ItemOptions<T> = (studyId: number, itemId: number) => UseQueryOptions<T, Error, T, ReturnType<typeof adjudicationItemKey>>;

/**
 * The adjudication screen of a study, whatever its kind: the queue of disputed items, the one on screen (the next
 * one fetched while it is open, so it appears at once after settling) and the done state. The panel settles the item.
 */
export function AdjudicationScreen<T extends { itemId: number }>({
  initialQueue,
  itemOptions,
  shortcuts,
  waitingFor,
  panel,
}: {
  initialQueue: AdjudicationQueueDto;
  itemOptions: ItemOptions<T>;
  shortcuts: Shortcut[];
  /** When an item appears here, said while there is none yet: "once both reviews are in". */
  waitingFor: string;
  panel: (item: T) => ReactNode;
}) {
  const studyId = initialQueue.studyId;
  const qc = useQueryClient();
  const { data: queue } = useQuery({ ...adjudicationQueueOptions(studyId), initialData: initialQueue });
  const currentItemId = queue.currentItemId;
  const current = useQuery({ ...itemOptions(studyId, currentItemId ?? 0), enabled: currentItemId !== null });

  useEffect(() => {
    if (queue.nextItemId !== null) void qc.prefetchQuery(itemOptions(studyId, queue.nextItemId));
  }, [qc, studyId, queue.nextItemId, itemOptions]);

  const shown = current.data && current.data.itemId === currentItemId ? current.data : null;

  return (
    <ReviewShell
      testId="adjudicate"
      data-item={currentItemId ?? undefined}
      itemId={shown?.itemId}
      kind="Adjudication"
      studyName={queue.studyName}
      progress={{
        done: queue.resolved,
        total: queue.total,
        label: `${queue.resolved.toLocaleString('en-US')} of ${queue.total.toLocaleString('en-US')} disagreements settled`,
      }}
      shortcuts={shortcuts}
      readOnly={
        queue.status !== 'open' ? `This study is ${queue.status}: you can read the disagreements, but nothing can be settled.` : null
      }
    >
      {currentItemId === null ? (
        <ReviewDone title="No disagreements left to settle" testId="adjudication-done">
          {queue.total === 0
            ? `The reviewers have not disagreed on any finished item yet. Items appear here ${waitingFor}.`
            : `All ${queue.total.toLocaleString('en-US')} items with disagreements are settled.`}
        </ReviewDone>
      ) : shown ? (
        panel(shown)
      ) : current.isError ? (
        <ReviewLoadError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <ReviewLoading>Loading the next disagreement…</ReviewLoading>
      )}
    </ReviewShell>
  );
}

/** The line above a disputed item: its position, how many rows the reviewers left open, how many reviewed it. */
export function AdjudicationItemLabel({ position, disputed, reviewers }: { position: number; disputed: number; reviewers: number }) {
  return (
    <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-500">
      <span className="font-medium text-slate-700" data-testid="item-label">
        Item {position}
      </span>
      <span aria-hidden="true">·</span>
      <span>
        {disputed} disagreement{disputed === 1 ? '' : 's'}
      </span>
      <span aria-hidden="true">·</span>
      <span>{reviewers} reviewers</span>
    </p>
  );
}

/** The status under a disputed item: ready, or how many disagreements are still open. */
export const settleStatus = (open: number) =>
  open === 0 ? 'Ready to settle.' : `${open} disagreement${open === 1 ? '' : 's'} still open.`;
