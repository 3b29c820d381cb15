'use client';

import { Fragment, useEffect, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { Kbd } from './kbd';
import { shouldIgnoreShortcut } from './keyboard';

export type Shortcut = {
  /** Alternatives, each shown as its own key ("j", "↓"); a combination is written with "+" ("Shift+Enter"). */
  keys: string[];
  label: string;
};

export type ShortcutHelpProps = {
  shortcuts: Shortcut[];
  title?: string;
  className?: string;
};

/**
 * The visible "Keyboard shortcuts (?)" button and the list it opens. `?`
 * toggles it from anywhere on the page except while typing.
 */
export function ShortcutHelp({ shortcuts, title = 'Keyboard shortcuts', className }: ShortcutHelpProps) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '?') return;
      if (open) {
        // The list's own dialog has focus, which the generic guard would ignore.
        event.preventDefault();
        setOpen(false);
        return;
      }
      if (shouldIgnoreShortcut(event)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <>
      <Button variant="ghost" size="sm" className={className} onClick={() => setOpen(true)} aria-haspopup="dialog" aria-keyshortcuts="?">
        Keyboard shortcuts <Kbd aria-hidden="true">?</Kbd>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} size="sm">
        <dl className="divide-y divide-slate-100 text-sm">
          {shortcuts.map((shortcut) => (
            <div key={`${shortcut.keys.join(' ')}|${shortcut.label}`} className="flex items-center justify-between gap-4 py-2">
              <dt className="text-slate-700">{shortcut.label}</dt>
              <dd className="flex shrink-0 items-center gap-1">
                {shortcut.keys.map((key, index) => (
                  <Fragment key={key}>
                    {index > 0 ? <span className="text-xs text-slate-500">or</span> : null}
                    <KeyCombo combo={key} />
                  </Fragment>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </Dialog>
    </>
  );
}

function KeyCombo({ combo }: { combo: string }) {
  // "+" on its own is a key, not a separator.
  const parts = combo === '+' ? ['+'] : combo.split('+').filter(Boolean);
  return (
    <span className="inline-flex items-center gap-0.5">
      {parts.map((part, index) => (
        <Fragment key={`${part}-${index}`}>
          {index > 0 ? (
            <span className="text-xs text-slate-500" aria-hidden="true">
              +
            </span>
          ) : null}
          <Kbd>{part}</Kbd>
        </Fragment>
      ))}
    </span>
  );
}
