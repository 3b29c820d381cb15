import { Fragment, type ReactNode } from 'react';
import { ActionBarFrame } from '@/components/review/action-bar-frame';
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
    <ActionBarFrame
      action={action}
      onAction={onAction}
      pending={pending}
      incomplete={incomplete}
      error={error}
      hint={hint}
      status={status}
      before={before}
      focused={
        focused ? (
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
        ) : null
      }
      keys={
        <>
          <Kbd>1</Kbd> Response 1 <Kbd>2</Kbd> Tie <Kbd>3</Kbd> Response 2 <span className="mx-1">·</span> <Kbd>j</Kbd>
          <Kbd>k</Kbd> move <Kbd>{extraKey.key}</Kbd> {extraKey.label}
          {moreKeys.map((k) => (
            <Fragment key={k.key}>
              {' '}
              <Kbd>{k.key}</Kbd> {k.label}
            </Fragment>
          ))}
        </>
      }
    />
  );
}
