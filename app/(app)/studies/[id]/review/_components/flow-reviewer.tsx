'use client';

import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import { assignmentOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { FlowDecisionPanel } from './flow-decision-panel';
import { useItemTools } from './use-item-tools';
import { useReviewQueue } from './use-review-queue';

export const FLOW_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next step' },
  { keys: ['k', '↑'], label: 'Previous step' },
  { keys: ['v'], label: 'Verify the flow' },
  { keys: ['t'], label: 'Truncate after the focused step' },
  { keys: ['d'], label: 'Discard the flow' },
  { keys: ['1', '2', '3', '4', '5'], label: 'Toggle a discard reason (while discarding)' },
  { keys: ['n'], label: 'Write a note' },
  { keys: ['Esc'], label: 'Leave the note field' },
  { keys: ['Enter'], label: 'Submit (Ctrl+Enter inside the note)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function FlowReviewer({ initialQueue }: { initialQueue: QueueDto }) {
  const review = useReviewQueue(initialQueue, assignmentOptions);
  const { queue, currentId, current, shown, onUndo, undoPending } = review;
  const itemTools = useItemTools(review, queue);

  return (
    <ReviewShell
      kind="Flow review"
      studyName={queue.studyName}
      progress={{ done: queue.submitted, total: queue.total }}
      shortcuts={FLOW_SHORTCUTS}
      guidelines={queue.guidelines}
      itemTools={currentId === null ? null : itemTools}
      historyHref={`/studies/${queue.studyId}/review/history`}
      readOnly={
        queue.status !== 'open' ? `This study is ${queue.status}: you can read the flows, but nothing can be submitted or changed.` : null
      }
      errors={[review.undoError, review.skipError, review.otherError]}
    >
      {currentId === null ? (
        <ReviewDone title="All done — thank you!" undo={{ available: queue.undoableId !== null, onUndo, pending: undoPending }}>
          You have reviewed all {queue.total.toLocaleString('en-US')} flows assigned to you in this study.
        </ReviewDone>
      ) : shown ? (
        <FlowDecisionPanel
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
      ) : current.isError ? (
        <ReviewLoadError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <ReviewLoading>Loading the next flow…</ReviewLoading>
      )}
    </ReviewShell>
  );
}
