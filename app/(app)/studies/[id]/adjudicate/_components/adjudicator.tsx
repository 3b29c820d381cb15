'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { ShortcutHelp } from '@/components/ui/shortcut-help';
import { adjudicationItemOptions, adjudicationQueueOptions } from '@/lib/query/review';
import type { AdjudicationQueueDto } from '@/lib/server/review/dto';
import { AdjudicationPanel } from './adjudication-panel';

export const ADJUDICATE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next disagreement' },
  { keys: ['k', '↑'], label: 'Previous disagreement' },
  { keys: ['1'], label: 'Final label: Response 1 better' },
  { keys: ['2'], label: 'Final label: Tie' },
  { keys: ['3'], label: 'Final label: Response 2 better' },
  { keys: ['r'], label: 'Write a rationale for the focused criterion (the only way keys reach the field)' },
  { keys: ['Esc'], label: 'Leave the rationale field, back to the criteria' },
  { keys: ['i'], label: 'Show or hide what the focused criterion means' },
  { keys: ['Enter'], label: 'Settle the item (Ctrl+Enter inside a rationale)' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function Adjudicator({ initialQueue }: { initialQueue: AdjudicationQueueDto }) {
  const studyId = initialQueue.studyId;
  const qc = useQueryClient();
  const { data: queue } = useQuery({ ...adjudicationQueueOptions(studyId), initialData: initialQueue });
  const currentItemId = queue.currentItemId;
  const current = useQuery({ ...adjudicationItemOptions(studyId, currentItemId ?? 0), enabled: currentItemId !== null });

  // The next disagreement is fetched while this one is open, so it appears at once after settling.
  useEffect(() => {
    if (queue.nextItemId !== null) void qc.prefetchQuery(adjudicationItemOptions(studyId, queue.nextItemId));
  }, [qc, studyId, queue.nextItemId]);

  const shown = current.data && current.data.itemId === currentItemId ? current.data : null;
  const shownId = shown?.itemId;
  const lastShown = useRef(shownId);
  useEffect(() => {
    if (shownId === undefined) return;
    if (lastShown.current !== undefined && lastShown.current !== shownId) window.scrollTo({ top: 0 });
    lastShown.current = shownId;
  }, [shownId]);

  return (
    <div data-testid="adjudicate" data-item={currentItemId ?? undefined} className="pb-40">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <div>
          <p className="text-xs tracking-wide text-slate-500 uppercase">Adjudication</p>
          <h1 className="text-xl font-semibold">{queue.studyName}</h1>
        </div>
        <div className="min-w-64 flex-1">
          <ProgressBar
            done={queue.resolved}
            total={queue.total}
            label={`${queue.resolved.toLocaleString('en-US')} of ${queue.total.toLocaleString('en-US')} disagreements settled`}
          />
        </div>
        <ShortcutHelp shortcuts={ADJUDICATE_SHORTCUTS} />
      </div>
      {queue.status !== 'open' && (
        <Alert tone="warning" className="mb-4">
          This study is {queue.status}: you can read the disagreements, but nothing can be settled.
        </Alert>
      )}
      {currentItemId === null ? (
        <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6" data-testid="adjudication-done">
          <h2 className="text-lg font-semibold text-emerald-900">No disagreements left to settle</h2>
          <p className="mt-1 text-sm text-emerald-900">
            {queue.total === 0
              ? 'The reviewers have not disagreed on any finished item yet. Items appear here once both reviews are in.'
              : `All ${queue.total.toLocaleString('en-US')} items with disagreements are settled.`}
          </p>
          <Link href="/" className={buttonClasses({ className: 'mt-4 bg-emerald-700 hover:bg-emerald-800' })}>
            Back to my work
          </Link>
        </div>
      ) : shown ? (
        <AdjudicationPanel key={shown.itemId} item={shown} />
      ) : current.isError ? (
        <Alert tone="error" title="This item could not be loaded.">
          <p>{current.error.message}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void current.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <p className="min-h-[60vh] text-slate-500" aria-live="polite">
          Loading the next disagreement…
        </p>
      )}
    </div>
  );
}
