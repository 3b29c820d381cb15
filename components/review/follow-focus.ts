'use client';

import { useEffect, useRef, type RefObject } from 'react';

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
