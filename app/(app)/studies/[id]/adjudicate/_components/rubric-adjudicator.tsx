'use client';

import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ReviewDone, ReviewLoadError, ReviewLoading, ReviewShell } from '@/components/review/review-shell';
import { adjudicationQueueOptions, rubricAdjudicationItemOptions } from '@/lib/query/review';
import type { AdjudicationQueueDto } from '@/lib/server/review/dto';
import { RubricAdjudicationPanel } from './rubric-adjudication-panel';

export const RUBRIC_ADJUDICATE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next disagreement' },
  { keys: ['k', '↑'], label: 'Previous disagreement' },
  { keys: ['1', '2', '…'], label: 'Final label of the focused dimension (the keys are shown on its buttons)' },
  { keys: ['r'], label: 'Write a rationale for the focused dimension' },
  { keys: ['Esc'], label: 'Leave the rationale field' },
  { keys: ['Enter'], label: 'Settle the item (Ctrl+Enter inside a rationale)' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function RubricAdjudicator({ initialQueue }: { initialQueue: AdjudicationQueueDto }) {
  const studyId = initialQueue.studyId;
  const qc = useQueryClient();
  const { data: queue } = useQuery({ ...adjudicationQueueOptions(studyId), initialData: initialQueue });
  const currentItemId = queue.currentItemId;
  const current = useQuery({ ...rubricAdjudicationItemOptions(studyId, currentItemId ?? 0), enabled: currentItemId !== null });
  useEffect(() => {
    if (queue.nextItemId !== null) void qc.prefetchQuery(rubricAdjudicationItemOptions(studyId, queue.nextItemId));
  }, [qc, studyId, queue.nextItemId]);
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
      shortcuts={RUBRIC_ADJUDICATE_SHORTCUTS}
      readOnly={
        queue.status !== 'open' ? `This study is ${queue.status}: you can read the disagreements, but nothing can be settled.` : null
      }
    >
      {currentItemId === null ? (
        <ReviewDone title="No disagreements left to settle" testId="adjudication-done">
          {queue.total === 0
            ? 'The reviewers have not disagreed on any finished item yet. Items appear here once every review is in.'
            : `All ${queue.total.toLocaleString('en-US')} items with disagreements are settled.`}
        </ReviewDone>
      ) : shown ? (
        <RubricAdjudicationPanel key={shown.itemId} item={shown} />
      ) : current.isError ? (
        <ReviewLoadError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <ReviewLoading>Loading the next disagreement…</ReviewLoading>
      )}
    </ReviewShell>
  );
}
