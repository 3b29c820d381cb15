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
