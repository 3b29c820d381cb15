'use client';

import { useLayoutEffect, type RefObject } from 'react';

/**
 * Keeps a context column that scrolls on its own opened at its end: the dialogue's last turn, the one the replies
 * answer and the first criterion asks about. Scrolled again when `key` changes (a new item) and when the box changes
 * height (the guidelines panel opens or closes, the window is resized, rendered math grows the turns), because a
 * box that shrinks keeps its scroll offset and so shows its top, the problem card, instead of the last turn.
 */
export function useScrolledToEnd(box: RefObject<HTMLElement | null>, key: unknown) {
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const toEnd = () => el.scrollTo(0, el.scrollHeight);
    toEnd();
    // Once more after the first paint: rendered math and wrapped text can still grow the turns.
    const frame = requestAnimationFrame(toEnd);
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientHeight === height) return;
      height = el.clientHeight;
      toEnd();
    });
    observer.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [box, key]);
}
