'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { ignoreShortcut, useWindowKeydown } from '@/components/pairwise/keyboard';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { ProgressBar } from '@/components/ui/progress-bar';
import { RichText } from '@/components/ui/rich-text';
import { ShortcutHelp } from '@/components/ui/shortcut-help';
import { judgeAssignmentOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { JudgePanel } from './judge-panel';
import { useReviewQueue } from './use-review-queue';

export const JUDGE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next criterion' },
  { keys: ['k', '↑'], label: 'Previous criterion' },
  { keys: ['1'], label: 'Response 1 better (then on to the next open criterion)' },
  { keys: ['2'], label: 'Tie' },
  { keys: ['3'], label: 'Response 2 better' },
  { keys: ['i'], label: 'Show or hide what the focused criterion means' },
  { keys: ['Enter'], label: 'Submit (once every criterion has a choice)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function PairwiseJudge({ initialQueue }: { initialQueue: QueueDto }) {
  const review = useReviewQueue(initialQueue, judgeAssignmentOptions);
  const { queue, currentId, current, shown, onUndo, undoPending } = review;

  const shownId = shown?.assignmentId;
  // A new item starts at its top (problem, then replies), wherever the reviewer had scrolled to on the last one.
  const lastShown = useRef(shownId);
  useEffect(() => {
    if (shownId === undefined) return;
    if (lastShown.current !== undefined && lastShown.current !== shownId) window.scrollTo({ top: 0 });
    lastShown.current = shownId;
  }, [shownId]);

  return (
    <div data-testid="judge" data-assignment={currentId ?? undefined} className="pb-40">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <div>
          <p className="text-xs tracking-wide text-slate-500 uppercase">Pairwise judgment</p>
          <h1 className="text-xl font-semibold">{queue.studyName}</h1>
        </div>
        <div className="min-w-64 flex-1">
          <ProgressBar done={queue.submitted} total={queue.total} />
        </div>
        <ShortcutHelp shortcuts={JUDGE_SHORTCUTS} />
      </div>
      {queue.guidelines && (
        <details className="mb-4 rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium">Guidelines</summary>
          <RichText text={queue.guidelines} />
        </details>
      )}
      {queue.status !== 'open' && (
        <Alert tone="warning" className="mb-4">
          This study is {queue.status}: you can read the items, but nothing can be submitted or changed.
        </Alert>
      )}
      {[review.undoError, review.otherError].map(
        (error) =>
          error && (
            <Alert key={error} tone="error" className="mb-4">
              {error}
            </Alert>
          ),
      )}
      {currentId === null ? (
        <AllDone queue={queue} onUndo={onUndo} undoing={undoPending} />
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
        <Alert tone="error" title="This item could not be loaded.">
          <p>{current.error.message}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void current.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <p className="min-h-[60vh] text-slate-500" aria-live="polite">
          Loading the next item…
        </p>
      )}
    </div>
  );
}

function AllDone({ queue, onUndo, undoing }: { queue: QueueDto; onUndo: () => void; undoing: boolean }) {
  useWindowKeydown((e) => {
    if (e.key === 'u' && queue.undoableId !== null && !ignoreShortcut(e)) {
      e.preventDefault();
      onUndo();
    }
  });
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6" data-testid="all-done">
      <h2 className="text-lg font-semibold text-emerald-900">All done — thank you!</h2>
      <p className="mt-1 text-sm text-emerald-900">
        You have judged all {queue.total.toLocaleString('en-US')} items assigned to you in this study.
      </p>
      <div className="mt-4 flex gap-3">
        {queue.undoableId !== null && (
          <Button variant="secondary" onClick={onUndo} pending={undoing}>
            Undo last submission <Kbd aria-hidden="true">u</Kbd>
          </Button>
        )}
        <Link href="/" className={buttonClasses({ className: 'bg-emerald-700 hover:bg-emerald-800' })}>
          Back to my work
        </Link>
      </div>
    </div>
  );
}
