'use client';

import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { shouldIgnoreShortcut } from '@/components/ui/keyboard';

/**
 * The shared guard for single-key shortcuts (typing, IME, modifiers, open dialog). Only movement keys may
 * auto-repeat: holding j walks down the list, but a held 1 or Enter must not act item after item.
 */
export function ignoreShortcut(event: KeyboardEvent, { allowRepeat = false } = {}): boolean {
  return shouldIgnoreShortcut({
    target: event.target,
    defaultPrevented: event.defaultPrevented,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    altKey: event.altKey,
    isComposing: event.isComposing,
    repeat: allowRepeat ? false : event.repeat,
  });
}

/** True when Enter on this element already does something of its own (press a button, follow a link, open a disclosure). */
export function enterActivates(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return target.closest('button, a[href], summary, select, textarea, [role="button"]') !== null;
}

/** True when ↑/↓ should scroll the focused box (a long text with its own scrollbar) rather than move between rows. */
export function arrowsScroll(event: KeyboardEvent): boolean {
  if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return false;
  return event.target instanceof Element && event.target.closest('[data-scroll-region]') !== null;
}

/** True when the key press happens inside an open dialog (the shortcut list), which owns the keyboard. */
export function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog') !== null;
}

/**
 * Listens for keydown on the window for as long as the component is mounted, always calling the handler of the
 * latest render: the listener is registered once, so it can never hold on to an old draft or an old queue.
 */
export function useWindowKeydown(handler: (event: KeyboardEvent) => void) {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  // A layout effect, so the keys work from the first paint on (a fast typist, or a test, presses at once).
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => latest.current(event);
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/**
 * Scrolls the focused row into view and, when keyboard focus is inside the list but on another row (say a radio
 * of the previous row after a click), moves it to the focused row so arrow keys and Space act on what is highlighted.
 */
export function useFollowFocus(list: RefObject<HTMLElement | null>, focus: number, key: unknown) {
  // Not when an item first appears: the reviewer starts reading at the top, not at the row a draft remembers.
  const shownFor = useRef<unknown>(undefined);
  useEffect(() => {
    if (shownFor.current !== key) {
      shownFor.current = key;
      return;
    }
    const root = list.current;
    const row = root?.querySelector<HTMLElement>(`[data-row="${focus}"]`);
    if (!root || !row) return;
    row.scrollIntoView({ block: 'nearest' });
    const active = document.activeElement;
    if (active && active !== document.body && root.contains(active) && !row.contains(active)) {
      const target = row.querySelector<HTMLElement>('input[type="radio"]:checked') ?? row.querySelector<HTMLElement>('input[type="radio"]');
      target?.focus({ preventScroll: true });
    }
  }, [list, focus, key]);
}
