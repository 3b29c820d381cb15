import { Fragment, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { CHOICE_LABEL, type ScreenChoice } from './choices';

type Props = {
  /** Accessible name of the bar and the word on its main button: "Submit", "Settle". */
  action: string;
  /** The focused criterion, its choice and its definition (shown beside it, so j/k reveal what each one means). */
  focused: { name: string; choice: ScreenChoice | undefined; description?: string } | null;
  /** What an unset focused criterion says: "no choice yet". */
  unset: string;
  /** The screen's own extra key, shown beside 1/2/3 and j/k. */
  extraKey: { key: string; label: string };
  /** Further keys of the screen, shown after it. */
  moreKeys?: readonly { key: string; label: string }[];
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

/** The sticky bar at the foot of the judging and adjudication screens: focus, keys, main action, status. */
export function ChoiceActionBar({
  action,
  focused,
  unset,
  extraKey,
  moreKeys = [],
  onAction,
  pending,
  incomplete,
  error,
  hint,
  status,
  before,
}: Props) {
  return (
    <section
      aria-label={action}
      data-testid="action-bar"
      className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur pointer-coarse:px-2 pointer-coarse:py-1.5"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 text-sm text-slate-700 pointer-coarse:text-xs">
          {focused ? (
            <>
              <p>
                <span className="text-slate-500">Focused:</span> <span className="font-medium">{focused.name}</span>
                <span className="text-slate-500"> — {focused.choice ? CHOICE_LABEL[focused.choice] : unset}</span>
              </p>
              {focused.description ? (
                <p
                  className="line-clamp-2 text-xs text-slate-500 pointer-coarse:hidden"
                  data-testid="focused-definition"
                  title={focused.description}
                >
                  {focused.description}
                </p>
              ) : null}
            </>
          ) : null}
        </div>
        <p
          className="hidden items-center gap-1.5 text-xs text-slate-500 xl:flex pointer-coarse:hidden"
          aria-hidden="true"
          data-testid="key-legend"
        >
          <Kbd>1</Kbd> Response 1 <Kbd>2</Kbd> Tie <Kbd>3</Kbd> Response 2 <span className="mx-1">·</span> <Kbd>j</Kbd>
          <Kbd>k</Kbd> move <Kbd>{extraKey.key}</Kbd> {extraKey.label}
          {moreKeys.map((k) => (
            <Fragment key={k.key}>
              {' '}
              <Kbd>{k.key}</Kbd> {k.label}
            </Fragment>
          ))}
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
