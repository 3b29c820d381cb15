import { Fragment, type ReactNode } from 'react';
import { ActionBarFrame } from '@/components/review/action-bar-frame';
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
          <p>
            <span className="text-slate-500">Focused:</span> <span className="font-medium">{focused.name}</span>
            <span className="text-slate-500"> — {focused.value ?? 'no label yet'}</span>
          </p>
        ) : null
      }
      keys={
        <>
          <Kbd>1</Kbd>…<Kbd>{Math.min(labelCount, 9)}</Kbd> label <span className="mx-1">·</span> <Kbd>j</Kbd>
          <Kbd>k</Kbd> move
          {extraKeys.map((k) => (
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
