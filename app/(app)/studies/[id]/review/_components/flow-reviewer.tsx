'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { isTypingTarget } from '@/components/review/keyboard';
import { ProgressBar } from '@/components/ui/progress-bar';
import { RichText } from '@/components/ui/rich-text';
import { ShortcutHelp } from '@/components/ui/shortcut-help';
import { assignmentOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { FlowDecisionPanel } from './flow-decision-panel';
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
  const { queue, currentId, current, shown, onUndo } = review;

  return (
    <div className="pb-40">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">Flow review</p>
          <h1 className="text-xl font-semibold">{queue.studyName}</h1>
        </div>
        <div className="min-w-64 flex-1">
          <ProgressBar done={queue.submitted} total={queue.total} />
        </div>
        <ShortcutHelp shortcuts={FLOW_SHORTCUTS} />
      </div>
      {queue.guidelines && (
        <details className="mb-4 rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium">Guidelines</summary>
          <RichText text={queue.guidelines} />
        </details>
      )}
      {[review.undoError, review.otherError].map(
        (error) =>
          error && (
            <p key={error} role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          ),
      )}
      {currentId === null ? (
        <AllDone queue={queue} onUndo={onUndo} undoing={review.undoPending} />
      ) : shown ? (
        <FlowDecisionPanel
          key={shown.assignmentId}
          assignment={shown}
          queue={queue}
          onUndo={onUndo}
          undoPending={review.undoPending}
          onSubmit={review.submit}
          sending={review.isSending(shown.assignmentId)}
          isSubmitted={review.isSubmitted}
          submitError={review.submitError(shown.assignmentId)}
        />
      ) : current.isError ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {(current.error as Error).message}
        </p>
      ) : (
        <p className="text-slate-500" aria-live="polite">
          Loading the next flow…
        </p>
      )}
    </div>
  );
}

function AllDone({ queue, onUndo, undoing }: { queue: QueueDto; onUndo: () => void; undoing: boolean }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'u' || queue.undoableId === null || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      onUndo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onUndo, queue.undoableId]);
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6" data-testid="all-done">
      <h2 className="text-lg font-semibold text-emerald-900">All done — thank you!</h2>
      <p className="mt-1 text-sm text-emerald-900">
        You have reviewed all {queue.total.toLocaleString('en-US')} flows assigned to you in this study.
      </p>
      <div className="mt-4 flex gap-3">
        {queue.undoableId !== null && (
          <button
            type="button"
            onClick={onUndo}
            disabled={undoing}
            className="rounded-md border border-emerald-300 bg-white px-3 py-1.5 text-sm"
          >
            Undo last submission (u)
          </button>
        )}
        <Link href="/" className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white">
          Back to my work
        </Link>
      </div>
    </div>
  );
}
