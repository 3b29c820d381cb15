'use client';

import { useEffect, useRef } from 'react';

const IDLE_AFTER_MS = 60_000;
const TICK_MS = 1_000;

/**
 * Counts time spent actively on the current item: the tab must be visible and the reviewer must have used the
 * keyboard, mouse or touch within the last minute. Returns a ref holding the total in ms (starting from the
 * server's figure), reset whenever `key` changes.
 */
export function useActiveTime(key: number | null, initialMs: number) {
  const total = useRef(initialMs);
  const lastInput = useRef(Date.now());

  useEffect(() => {
    total.current = initialMs;
    lastInput.current = Date.now();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset only when the item changes
  }, [key]);

  useEffect(() => {
    const onInput = () => {
      lastInput.current = Date.now();
    };
    const events = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;
    events.forEach((e) => window.addEventListener(e, onInput, { passive: true }));
    let last = Date.now();
    const timer = window.setInterval(() => {
      const now = Date.now();
      const active = document.visibilityState === 'visible' && now - lastInput.current < IDLE_AFTER_MS;
      if (active) total.current += Math.min(now - last, TICK_MS * 5);
      last = now;
    }, TICK_MS);
    return () => {
      events.forEach((e) => window.removeEventListener(e, onInput));
      window.clearInterval(timer);
    };
  }, []);

  return total;
}
