'use client';

import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import { RubricDialogue } from '@/components/rubric/rubric-dialogue';
import { rubricAssignmentOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { RubricPanel } from './rubric-panel';
import { useItemTools } from './use-item-tools';
import { useReviewQueue } from './use-review-queue';

export const RUBRIC_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next dimension' },
  { keys: ['k', '↑'], label: 'Previous dimension' },
  { keys: ['1', '2', '…'], label: 'Label the focused dimension (the keys are shown on its buttons), then on to the next open one' },
  { keys: ['i'], label: 'Show or hide what the focused dimension means' },
  { keys: ['n'], label: 'Write a note (Esc leaves the field)' },
  { keys: ['Enter'], label: 'Submit (once every dimension has a label)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

/**
 * The rubric screen: the dialogue on one side, kept mounted while the replies of the same dialogue follow one
 * another, and the reply under review with its dimensions on the other. Skip, flag, comment, the history and the
 * guidelines panel come from the shared shell, as on the other screens. A skipped reply goes to the end of the
 * queue like any item, leaving its dialogue's other replies where they are; its dialogue shows again when it
 * comes back.
 */
export function RubricReviewer({ initialQueue }: { initialQueue: QueueDto }) {
  const review = useReviewQueue(initialQueue, rubricAssignmentOptions);
  const { queue, currentId, current, shown, onUndo, undoPending } = review;
  // The dialogue stays in place for the replies of one group; a new dialogue starts at the top.
  const anchor = shown ? (shown.group?.anchor ?? shown.assignmentId) : undefined;
  const itemTools = useItemTools(review, queue);

  return (
    <ReviewShell
      testId="rubric"
      data-assignment={currentId ?? undefined}
      itemId={anchor}
      kind="Rubric labelling"
      studyName={queue.studyName}
      progress={{ done: queue.submitted, total: queue.total }}
      shortcuts={RUBRIC_SHORTCUTS}
      guidelines={queue.guidelines}
      itemTools={currentId === null ? null : itemTools}
      historyHref={`/studies/${queue.studyId}/review/history`}
      readOnly={
        queue.status !== 'open' ? `This study is ${queue.status}: you can read the items, but nothing can be submitted or changed.` : null
      }
      errors={[review.undoError, review.skipError, review.otherError]}
    >
      {currentId === null ? (
        <ReviewDone title="All done — thank you!" undo={{ available: queue.undoableId !== null, onUndo, pending: undoPending }}>
          You have labelled all {queue.total.toLocaleString('en-US')} items assigned to you in this study.
        </ReviewDone>
      ) : shown ? (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
          <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
            <RubricDialogue key={anchor} problem={shown.problem} history={shown.history} underReview={shown.reply === null} />
          </div>
          <RubricPanel
            key={shown.assignmentId}
            assignment={shown}
            queue={queue}
            onUndo={onUndo}
            undoPending={undoPending}
            onSubmit={review.submit}
            sending={review.isSending(shown.assignmentId)}
            isSubmitted={review.isSubmitted}
            submitError={review.submitError(shown.assignmentId)}
          />
        </div>
      ) : current.isError ? (
        <ReviewLoadError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <ReviewLoading>Loading the next item…</ReviewLoading>
      )}
    </ReviewShell>
  );
}
