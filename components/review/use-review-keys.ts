'use client';

import { useLayoutEffect, useRef } from 'react';
import { enterActivates, routeShortcut } from '@/components/ui/keyboard';

export type ReviewKeys = {
  /**
   * A key press meant as a shortcut: not typing, not an IME composing, not inside the open `?` list, no Ctrl, ⌘ or
   * Alt, and not auto-repeated unless it moves between rows (j, k, ↑, ↓). Call preventDefault for the keys used.
   */
  onKey: (event: KeyboardEvent) => void;
  /**
   * Submits the item: Enter (unless the focused control acts on Enter itself: a button, a link, a disclosure), and
   * Ctrl+Enter or ⌘+Enter, also from inside a text field. Without it Enter goes to onKey and the chord to the browser.
   */
  onSubmit?: () => void;
  /** Escape inside a text field. Without it the field loses the focus, so the keys are shortcuts again. */
  onLeaveField?: (field: HTMLElement, event: KeyboardEvent) => void;
};

/**
 * The keyboard of a review screen: one listener on the window for as long as the component is mounted, behind the
 * one guard every review screen shares (routeShortcut), always calling the handlers of the latest render, so it
 * never acts on an old draft or an old queue.
 */
export function useReviewKeys(keys: ReviewKeys) {
  const latest = useRef(keys);
  useLayoutEffect(() => {
    latest.current = keys;
  });
  // A layout effect, so the keys work from the first paint on (a fast typist, or a test, presses at once).
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { onKey, onSubmit, onLeaveField } = latest.current;
      switch (routeShortcut(event)) {
        case 'command':
          if (event.key === 'Enter' && onSubmit) {
            if (enterActivates(event.target)) return;
            event.preventDefault();
            onSubmit();
          } else onKey(event);
          return;
        case 'submit':
          if (!onSubmit) return;
          event.preventDefault();
          onSubmit();
          return;
        case 'leave-field':
          if (onLeaveField) onLeaveField(event.target as HTMLElement, event);
          else (event.target as HTMLElement).blur();
          return;
        case 'ignore':
          return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
