import { Fragment, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';

type Props = {
  action: string;
  focused: { name: string; value: string | null } | null;
  labelCount: number;
  onAction: () => void;
  pending: boolean;
  incomplete: boolean;
  error: string | null;
  hint: string | null;
  status: string;
  before?: ReactNode;
  /** The screen's own keys after j/k: the review screen's details and note, the adjudicator's rationale. */
  extraKeys?: readonly { key: string; label: string }[];
};

/** The sticky bar at the foot of the rubric screens: the focused dimension, the keys, the main action, the status. */
export function RubricActionBar({
  action,
  focused,
  labelCount,
  onAction,
  pending,
  incomplete,
  error,
  hint,
  status,
  before,
  extraKeys = [
    { key: 'i', label: 'details' },
    { key: 'n', label: 'note' },
  ],
}: Props) {
  return (
    <section
      aria-label={action}
      className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2">
        <p className="min-w-0 text-sm text-slate-700">
          {focused ? (
            <>
              <span className="text-slate-500">Focused:</span> <span className="font-medium">{focused.name}</span>
              <span className="text-slate-500"> — {focused.value ?? 'no label yet'}</span>
            </>
          ) : null}
        </p>
        <p className="hidden items-center gap-1.5 text-xs text-slate-500 xl:flex" aria-hidden="true">
          <Kbd>1</Kbd>…<Kbd>{Math.min(labelCount, 9)}</Kbd> label <span className="mx-1">·</span> <Kbd>j</Kbd>
          <Kbd>k</Kbd> move
          {extraKeys.map((k) => (
            <Fragment key={k.key}>
              {' '}
              <Kbd>{k.key}</Kbd> {k.label}
            </Fragment>
          ))}
        </p>
        <div className="ml-auto flex items-center gap-2">
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
      <div className="mx-auto mt-1 max-w-7xl text-xs">
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
