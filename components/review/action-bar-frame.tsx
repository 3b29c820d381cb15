import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';

type Props = {
  /** Accessible name of the bar and the word on its main button: "Submit", "Settle". */
  action: string;
  /** What is focused (the row and its answer), on the left. */
  focused: ReactNode;
  /** The key legend (hidden on narrow and touch screens). */
  keys: ReactNode;
  onAction: () => void;
  pending: boolean;
  /** Something is still missing: the button stays clickable (it explains what) but looks inactive. */
  incomplete: boolean;
  error: string | null;
  hint: string | null;
  status: string;
  /** Buttons placed before the main one (e.g. undo). */
  before?: ReactNode;
};

/**
 * The sticky bar at the foot of every row-by-row screen (judging, rubric labelling, both adjudications): the focused
 * row, the keys, the main action and the status line, smaller on a touch screen.
 */
export function ActionBarFrame({ action, focused, keys, onAction, pending, incomplete, error, hint, status, before }: Props) {
  return (
    <section
      aria-label={action}
      data-testid="action-bar"
      className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur pointer-coarse:px-2 pointer-coarse:py-1.5"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 text-sm text-slate-700 pointer-coarse:text-xs">{focused}</div>
        <p
          className="hidden items-center gap-1.5 text-xs text-slate-500 xl:flex pointer-coarse:hidden"
          aria-hidden="true"
          data-testid="key-legend"
        >
          {keys}
        </p>
        <div className="ml-auto flex items-center gap-2 pointer-coarse:gap-1">
          {before}
          <Button
            onClick={onAction}
            pending={pending}
            aria-disabled={incomplete || undefined}
            className="bg-emerald-700 hover:bg-emerald-800 disabled:bg-emerald-700/60 aria-disabled:opacity-60"
          >
            {action} <Kbd aria-hidden="true">Enter</Kbd>
          </Button>
        </div>
      </div>
      <div className="mx-auto mt-1 max-w-7xl text-xs pointer-coarse:mt-0">
        <div role="alert" className="text-rose-700">
          {error}
        </div>
        <div aria-live="polite" className={hint ? 'text-amber-800' : 'text-slate-500'}>
          {error ? null : (hint ?? status)}
        </div>
      </div>
    </section>
  );
}
