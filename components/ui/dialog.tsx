'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cn } from './cn';
import { isEditableTarget } from './keyboard';

export type DialogProps = {
  open: boolean;
  /** Called when the user dismisses the dialog (Escape, close button, backdrop); set `open` to false in it. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Action buttons, right-aligned under the content. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** Set false when a stray click outside must not throw away what is in the dialog. */
  closeOnBackdrop?: boolean;
  className?: string;
};

const WIDTHS = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl' } as const;

/**
 * Where the focus goes when a dialog opens: its first text field, so what the user types lands there; without one,
 * the dialog itself. Never a button: showModal() alone focuses the first focusable element, the close button, and
 * a space typed at once would press it (React's autoFocus cannot help, it runs while the dialog is still closed).
 */
function focusOnOpen(dialog: HTMLDialogElement) {
  const fields = dialog.querySelectorAll<HTMLElement>('input, textarea, select, [contenteditable]');
  const field = [...fields].find((f) => isEditableTarget(f) && !f.matches(':disabled') && f.getClientRects().length > 0);
  (field ?? dialog).focus();
}

/**
 * A modal on the native <dialog>: showModal() gives the focus trap, the inert
 * page behind, Escape to close and the top layer, so none of that is rebuilt
 * here. The focus goes to the dialog's first text field (focusOnOpen) and back
 * to whatever had it before opening.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  closeOnBackdrop = true,
  className,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  const openRef = useRef(open);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    onCloseRef.current = onClose;
    openRef.current = open;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      returnFocusTo.current = active instanceof HTMLElement ? active : null;
      dialog.showModal();
      focusOnOpen(dialog);
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // "close" fires for every way out: Escape, form method=dialog, close() above.
    const handleClose = () => {
      const target = returnFocusTo.current;
      returnFocusTo.current = null;
      if (target?.isConnected) target.focus();
      if (openRef.current) onCloseRef.current();
    };
    dialog.addEventListener('close', handleClose);
    return () => {
      dialog.removeEventListener('close', handleClose);
      // Unmounted while open: the element leaves the top layer without a
      // "close" event, so focus has to be handed back here.
      const target = returnFocusTo.current;
      if (target?.isConnected) target.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      // Focusable from script only: a dialog without a text field takes the focus itself (focusOnOpen).
      tabIndex={-1}
      aria-labelledby={titleId}
      aria-describedby={description != null ? descriptionId : undefined}
      // The inner panel covers the whole dialog box, so a click whose target is
      // the <dialog> itself landed on the backdrop.
      onClick={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) event.currentTarget.close();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] rounded-lg bg-white p-0 text-slate-900 shadow-xl focus:outline-none',
        'backdrop:bg-slate-900/40',
        WIDTHS[size],
        className,
      )}
    >
      <div className="flex max-h-[85vh] flex-col">
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4">
          <div className="min-w-0">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            {description != null ? (
              <p id={descriptionId} className="mt-1 text-sm text-slate-500">
                {description}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            onClick={() => ref.current?.close()}
            aria-label="Close"
            className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            <svg viewBox="0 0 20 20" className="size-5" fill="currentColor" aria-hidden="true">
              <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
            </svg>
          </button>
        </div>
        <div className="overflow-y-auto px-5 py-4">{children}</div>
        {footer != null ? <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div> : null}
      </div>
    </dialog>
  );
}
