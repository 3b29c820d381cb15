'use client';

import type { ReactNode } from 'react';
import type { UseQueryOptions } from '@tanstack/react-query';
import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import type { Shortcut } from '@/components/ui/shortcut-help';
import type { assignmentKey } from '@/lib/query/review';
import type { QueueDto, RemarksDto } from '@/lib/server/review/dto';
import { RevisingBanner } from './revising-banner';
import { useItemTools } from './use-item-tools';
import { useReviewQueue, type ReviewPanelProps } from './use-review-queue';

type ItemOptions<T> = (assignmentId: number) => UseQueryOptions<T, Error, T, ReturnType<typeof assignmentKey>>;

/**
 * A reviewer's screen over their queue (flow review, pairwise judging, rubric labelling): the shared shell with
 * skip, flag, comment, history and guidelines, the done state with its undo, and the panel of the item on screen,
 * wired to the queue's submit and undo.
 */
export function QueueReviewScreen<T extends { assignmentId: number; queuePosition: number; remarks?: RemarksDto }>({
  initialQueue,
  itemOptions,
  kind,
  shortcuts,
  testId,
  anchor,
  thing,
  done,
  panel,
}: {
  initialQueue: QueueDto;
  itemOptions: ItemOptions<T>;
  kind: string;
  shortcuts: Shortcut[];
  /** `data-testid` of the screen; with it, the screen also carries the assignment on screen (`data-assignment`). */
  testId?: string;
  /** What keeps the page's scroll position while it stays the same (see ReviewShell's itemId); left out: the scroll is kept. */
  anchor?: (shown: T | null) => number | undefined;
  /** What the reviewer works through: "item", "flow". */
  thing: string;
  /** The thanks once the queue is empty, given the number of items assigned. */
  done: (total: string) => ReactNode;
  panel: (props: ReviewPanelProps<T>) => ReactNode;
}) {
  const review = useReviewQueue(initialQueue, itemOptions);
  const { queue, currentId, current, shown, onUndo, undoPending } = review;
  const itemTools = useItemTools(review, queue);

  return (
    <ReviewShell
      testId={testId}
      data-assignment={testId ? (currentId ?? undefined) : undefined}
      itemId={anchor?.(shown)}
      kind={kind}
      studyName={queue.studyName}
      progress={{ done: queue.submitted, total: queue.total }}
      shortcuts={shortcuts}
      guidelines={queue.guidelines}
      itemTools={currentId === null ? null : itemTools}
      historyHref={`/studies/${queue.studyId}/review/history`}
      readOnly={
        queue.status !== 'open'
          ? `This study is ${queue.status}: you can read the ${thing}s, but nothing can be submitted or changed.`
          : null
      }
      errors={[review.undoError, review.skipError, review.abandonError, review.otherError]}
    >
      {review.revising ? (
        <RevisingBanner
          revising={review.revising}
          onAbandon={() => review.abandonRevision(review.revising!.assignmentId)}
          pending={review.abandonPending}
        />
      ) : null}
      {currentId === null ? (
        <ReviewDone title="All done — thank you!" undo={{ available: queue.undoableId !== null, onUndo, pending: undoPending }}>
          {done(queue.total.toLocaleString('en-US'))}
        </ReviewDone>
      ) : shown ? (
        panel({
          assignment: shown,
          queue,
          onUndo,
          undoPending,
          onSubmit: review.submit,
          sending: review.isSending(shown.assignmentId),
          isSubmitted: review.isSubmitted,
          submitError: review.submitError(shown.assignmentId),
        })
      ) : current.isError ? (
        <ReviewLoadError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <ReviewLoading>Loading the next {thing}…</ReviewLoading>
      )}
    </ReviewShell>
  );
}
