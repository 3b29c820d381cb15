'use client';

import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Kbd } from '@/components/ui/kbd';
import type { Shortcut } from '@/components/ui/shortcut-help';
import type { RemarksDto } from '@/lib/server/review/dto';
import { COMMENT_MAX, FLAG_REASON_MAX } from '@/lib/validation/limits';
import { useReviewKeys } from './use-review-keys';

/** What a review screen hands the shell so the reviewer can skip, flag and comment on the item on screen. */
export type ItemTools = {
  /** The assignment on screen: the dialogs start again when it changes. */
  assignmentId: number;
  remarks: RemarksDto;
  /** False when the item cannot be skipped (the study is closed, or it is the only one left). */
  canSkip: boolean;
  /** False when nothing can be changed (the study is closed). */
  canRemark: boolean;
  onSkip: () => void;
  skipPending: boolean;
  /** Saves the flag (null clears it); resolves to an error message, or null once it is stored. */
  onFlag: (reason: string | null) => Promise<string | null>;
  /** Saves the comment ('' removes it); resolves as `onFlag`. */
  onComment: (comment: string) => Promise<string | null>;
};

export const ITEM_TOOL_SHORTCUTS: Shortcut[] = [
  { keys: ['s'], label: 'Skip this item for now (it comes back at the end of your queue)' },
  { keys: ['f'], label: 'Flag this item for the study leads, with a reason' },
  { keys: ['c'], label: 'Write a comment on this item' },
];

/**
 * Skip, flag and comment for the item on screen, as buttons and as the keys s, f and c. Flag and comment open a
 * small dialog; what they save is the reviewer's own and is kept with the item whether or not it is submitted.
 */
export function ItemToolbar({ tools }: { tools: ItemTools }) {
  const [open, setOpen] = useState<'flag' | 'comment' | null>(null);
  useEffect(() => setOpen(null), [tools.assignmentId]);

  useReviewKeys({
    onKey: (event) => {
      if (open) return;
      if (event.key === 's' && tools.canSkip && !tools.skipPending) {
        event.preventDefault();
        tools.onSkip();
      } else if (event.key === 'f' && tools.canRemark) {
        event.preventDefault();
        setOpen('flag');
      } else if (event.key === 'c' && tools.canRemark) {
        event.preventDefault();
        setOpen('comment');
      }
    },
  });

  const { flagReason, comment } = tools.remarks;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2" data-testid="item-tools">
      <Button variant="secondary" size="sm" onClick={tools.onSkip} disabled={!tools.canSkip} pending={tools.skipPending}>
        Skip <Kbd aria-hidden="true">s</Kbd>
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setOpen('flag')}
        disabled={!tools.canRemark}
        aria-pressed={flagReason !== null}
        className={flagReason !== null ? 'border-amber-400 bg-amber-50' : undefined}
      >
        {flagReason !== null ? 'Flagged' : 'Flag'} <Kbd aria-hidden="true">f</Kbd>
      </Button>
      <Button variant="secondary" size="sm" onClick={() => setOpen('comment')} disabled={!tools.canRemark}>
        {comment !== null ? 'Edit comment' : 'Comment'} <Kbd aria-hidden="true">c</Kbd>
      </Button>
      {flagReason !== null && (
        <p className="min-w-0 truncate text-xs text-amber-800" data-testid="flag-reason" title={flagReason}>
          Flagged: {flagReason}
        </p>
      )}
      {comment !== null && (
        <p className="min-w-0 truncate text-xs text-slate-600" data-testid="item-comment" title={comment}>
          Your comment: {comment}
        </p>
      )}
      <RemarkDialog
        key={`flag-${tools.assignmentId}-${open === 'flag'}`}
        open={open === 'flag'}
        onClose={() => setOpen(null)}
        title="Flag this item"
        description="Tell the study leads what is wrong with it (broken text, a reply that cannot be judged, …). The flag stays until you remove it; you can still submit the item."
        label="Reason"
        max={FLAG_REASON_MAX}
        initial={flagReason ?? ''}
        saveLabel="Flag"
        clearLabel={flagReason !== null ? 'Remove flag' : null}
        requireText
        onSave={(text) => tools.onFlag(text)}
        onClear={() => tools.onFlag(null)}
      />
      <RemarkDialog
        key={`comment-${tools.assignmentId}-${open === 'comment'}`}
        open={open === 'comment'}
        onClose={() => setOpen(null)}
        title="Comment on this item"
        description="A note for yourself and the study leads, kept with your labels."
        label="Comment"
        max={COMMENT_MAX}
        initial={comment ?? ''}
        saveLabel="Save comment"
        clearLabel={comment !== null ? 'Delete comment' : null}
        onSave={(text) => tools.onComment(text)}
        onClear={() => tools.onComment('')}
      />
    </div>
  );
}

function RemarkDialog(props: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  label: string;
  max: number;
  initial: string;
  saveLabel: string;
  clearLabel: string | null;
  requireText?: boolean;
  onSave: (text: string) => Promise<string | null>;
  onClear: () => Promise<string | null>;
}) {
  const [text, setText] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = useId();

  const run = async (action: () => Promise<string | null>) => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const failed = await action();
      if (failed) setError(failed);
      else props.onClose();
    } catch {
      setError('The server could not be reached; nothing was saved. Try again.');
    } finally {
      setPending(false);
    }
  };
  const save = () => {
    if (props.requireText && text.trim() === '') {
      setError(`${props.label}: say why.`);
      return;
    }
    void run(() => props.onSave(text));
  };

  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      title={props.title}
      description={props.description}
      closeOnBackdrop={false}
      footer={
        <>
          {props.clearLabel && (
            <Button variant="ghost" onClick={() => void run(props.onClear)} disabled={pending}>
              {props.clearLabel}
            </Button>
          )}
          <Button variant="secondary" onClick={props.onClose} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={save} pending={pending}>
            {props.saveLabel} <Kbd aria-hidden="true">Ctrl+Enter</Kbd>
          </Button>
        </>
      }
    >
      <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-slate-700">
        {props.label}
      </label>
      <textarea
        id={fieldId}
        autoFocus
        rows={4}
        maxLength={props.max}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
        }}
        aria-invalid={error ? true : undefined}
        className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-accent-500 focus:outline-none"
      />
      <div role="alert" className="mt-1 text-sm text-rose-700">
        {error}
      </div>
    </Dialog>
  );
}
