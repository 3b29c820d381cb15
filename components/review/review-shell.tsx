'use client';

import { Link } from '@/components/ui/link';
import { useEffect, useRef, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { ProgressBar } from '@/components/ui/progress-bar';
import { ShortcutHelp, type Shortcut } from '@/components/ui/shortcut-help';
import { GuidelinesPanel, GuidelinesToggle, useGuidelinesOpen } from './guidelines-panel';
import { ITEM_TOOL_SHORTCUTS, ItemToolbar, type ItemTools } from './item-tools';
import { useReviewKeys } from './use-review-keys';

export type ReviewShellProps = {
  /** What the screen is for, shown above the study name: "Flow review", "Pairwise judgment", "Adjudication". */
  kind: string;
  studyName: string;
  /** The reviewer's progress through their queue; `label` is a caption for the bar. */
  progress: { done: number; total: number; label?: string };
  /** The screen's key bindings, listed by the `?` dialog. */
  shortcuts: Shortcut[];
  /** The study's guidelines (Markdown), in a side panel that stays open while the reviewer works (`g`). */
  guidelines?: string | null;
  /** Skip, flag and comment for the item on screen (keys s, f, c, added to the `?` list); left out where they do not apply. */
  itemTools?: ItemTools | null;
  /** A link to the reviewer's submitted items in this study ("Review my submissions"). */
  historyHref?: string | null;
  /** Set when nothing can be submitted (the study is closed): says so above the item. */
  readOnly?: string | null;
  /** Errors that belong to no item on screen (a failed undo, a submission of an item left behind); empty ones are skipped. */
  errors?: readonly (string | null)[];
  /** The item on screen: when it changes, the page starts again at its top. Leave it out to keep the scroll position. */
  itemId?: number | null;
  /** `data-testid` of the screen. */
  testId?: string;
  /** The item under review, or the done/loading/error state (ReviewDone, ReviewLoading, ReviewLoadError). */
  children: ReactNode;
} & { [attribute: `data-${string}`]: string | number | undefined };

/**
 * The frame every review screen shares: header with the study and the progress bar, the `?` key list, the
 * guidelines panel, skip/flag/comment for the item (when the screen passes `itemTools`), the way to the reviewer's
 * history, a notice when the study is read-only, and the errors that belong to no item. The item area is a size
 * container named `review`, so the screen lays out its columns by the room it has (less while the guidelines are
 * open). The screen brings the item and its keys (useReviewKeys), and picks what goes inside:
 *
 *   <ReviewShell kind="Flow review" studyName={…} progress={{ done, total }} shortcuts={KEYS} guidelines={…}>
 *     {done ? <ReviewDone title="All done — thank you!" undo={…}>…</ReviewDone>
 *       : item ? <Panel item={item} />
 *       : query.isError ? <ReviewLoadError error={query.error} onRetry={…} />
 *       : <ReviewLoading>Loading the next flow…</ReviewLoading>}
 *   </ReviewShell>
 */
export function ReviewShell({
  kind,
  studyName,
  progress,
  shortcuts,
  guidelines,
  itemTools,
  historyHref,
  readOnly,
  errors = [],
  itemId,
  testId,
  children,
  ...data
}: ReviewShellProps) {
  useStartAtTop(itemId);
  const panel = useGuidelinesOpen();
  // The shell's own keys go before `?`, which stays last.
  const own = [...(itemTools ? ITEM_TOOL_SHORTCUTS : []), ...(guidelines ? [{ keys: ['g'], label: 'Show or hide the guidelines' }] : [])];
  const allKeys = [...shortcuts.filter((k) => k.keys[0] !== '?'), ...own, ...shortcuts.filter((k) => k.keys[0] === '?')];
  const showPanel = !!guidelines && panel.open;
  return (
    <div
      data-testid={testId}
      {...data}
      className={showPanel ? 'pb-40 lg:mr-[22rem]' : 'pb-40'}
      data-guidelines-open={showPanel || undefined}
    >
      <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2">
        <div>
          <p className="text-xs tracking-wide text-slate-500 uppercase">{kind}</p>
          <h1 className="text-xl font-semibold">{studyName}</h1>
        </div>
        <div className="min-w-64 flex-1">
          <ProgressBar done={progress.done} total={progress.total} label={progress.label} />
        </div>
        <div className="flex items-center gap-2">
          {historyHref ? (
            <Link href={historyHref} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
              Review my submissions
            </Link>
          ) : null}
          {guidelines ? <GuidelinesToggle open={showPanel} onToggle={panel.toggle} /> : null}
          <ShortcutHelp shortcuts={allKeys} className="pointer-coarse:hidden" />
        </div>
      </div>
      {guidelines ? <GuidelinesPanel guidelines={guidelines} open={showPanel} onClose={panel.toggle} /> : null}
      {readOnly ? (
        <Alert tone="warning" className="mb-4">
          {readOnly}
        </Alert>
      ) : null}
      {[...new Set(errors)].map((error) =>
        error ? (
          <Alert key={error} tone="error" className="mb-4">
            {error}
          </Alert>
        ) : null,
      )}
      {itemTools ? <ItemToolbar tools={itemTools} /> : null}
      <div className="@container/review">{children}</div>
    </div>
  );
}

/** A new item starts at its top (the problem, then the rest), wherever the reviewer had scrolled to on the last one. */
function useStartAtTop(itemId: number | null | undefined) {
  const last = useRef(itemId);
  useEffect(() => {
    if (itemId == null) return;
    if (last.current != null && last.current !== itemId) window.scrollTo({ top: 0 });
    last.current = itemId;
  }, [itemId]);
}

export type ReviewDoneProps = {
  title: string;
  /** One sentence on what is finished. */
  children: ReactNode;
  /** Offers to take back the last submission (button and `u`) while `available`. */
  undo?: { available: boolean; onUndo: () => void; pending: boolean };
  testId?: string;
};

/** The end of the queue: what is done, undo of the last submission when there is one, and the way back to the work list. */
export function ReviewDone({ title, children, undo, testId = 'all-done' }: ReviewDoneProps) {
  useReviewKeys({
    onKey: (event) => {
      if (event.key !== 'u' || !undo?.available) return;
      event.preventDefault();
      undo.onUndo();
    },
  });
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6" data-testid={testId}>
      <h2 className="text-lg font-semibold text-emerald-900">{title}</h2>
      <p className="mt-1 text-sm text-emerald-900">{children}</p>
      <div className="mt-4 flex gap-3">
        {undo?.available ? (
          <Button variant="secondary" onClick={undo.onUndo} pending={undo.pending}>
            Undo last submission <Kbd aria-hidden="true">u</Kbd>
          </Button>
        ) : null}
        <Link href="/" className={buttonClasses({ className: 'bg-emerald-700 hover:bg-emerald-800' })}>
          Back to my work
        </Link>
      </div>
    </div>
  );
}

/** While the item on screen is fetched. */
export function ReviewLoading({ children }: { children: ReactNode }) {
  return (
    <p className="min-h-[60vh] text-slate-500" aria-live="polite">
      {children}
    </p>
  );
}

/** The item on screen could not be fetched: the server's reason and a retry. */
export function ReviewLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <Alert tone="error" title="This item could not be loaded.">
      <p>{error.message}</p>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
