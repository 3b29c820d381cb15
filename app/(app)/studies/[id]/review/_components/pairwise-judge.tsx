'use client';

import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import { judgeAssignmentOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { JudgePanel } from './judge-panel';
import { useItemTools } from './use-item-tools';
import { useReviewQueue } from './use-review-queue';

export const JUDGE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next criterion' },
  { keys: ['k', '↑'], label: 'Previous criterion' },
  { keys: ['1'], label: 'Response 1 better (then on to the next open criterion)' },
  { keys: ['2'], label: 'Tie' },
  { keys: ['3'], label: 'Response 2 better' },
  { keys: ['t'], label: 'Tie for every open criterion of the focused group' },
  { keys: ['i'], label: 'Show or hide what the focused criterion means' },
  { keys: ['Enter'], label: 'Submit (once every criterion has a choice)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function PairwiseJudge({ initialQueue }: { initialQueue: QueueDto }) {
  const review = useReviewQueue(initialQueue, judgeAssignmentOptions);
  const { queue, currentId, current, shown, onUndo, undoPending } = review;
  const itemTools = useItemTools(review, queue);

  return (
    <ReviewShell
      testId="judge"
      data-assignment={currentId ?? undefined}
      itemId={shown?.assignmentId}
      kind="Pairwise judgment"
      studyName={queue.studyName}
      progress={{ done: queue.submitted, total: queue.total }}
      shortcuts={JUDGE_SHORTCUTS}
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
          You have judged all {queue.total.toLocaleString('en-US')} items assigned to you in this study.
        </ReviewDone>
      ) : shown ? (
        <JudgePanel
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
        <ReviewLoading>Loading the next item…</ReviewLoading>
      )}
    </ReviewShell>
  );
}
