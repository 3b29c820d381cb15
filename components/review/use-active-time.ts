'use client';

import { useEffect, useMemo, useRef } from 'react';
import { ActiveClock } from './active-clock';

const TICK_MS = 1_000;

const visible = () => document.visibilityState === 'visible';

/**
 * Counts time spent actively on the current item (see ActiveClock): the tab must be visible and the reviewer must
 * have used the keyboard, mouse or touch within the last minute. Returns a ref-like object whose `current` is the
 * total in ms up to the moment it is read (starting from the server's figure), reset whenever `key` changes.
 */
export function useActiveTime(key: number | null, initialMs: number): { readonly current: number } {
  const clock = useRef<ActiveClock | null>(null);
  clock.current ??= new ActiveClock(initialMs, Date.now());

  useEffect(() => {
    clock.current!.reset(initialMs, Date.now());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset only when the item changes
  }, [key]);

  useEffect(() => {
    const onInput = () => clock.current!.input(Date.now());
    const events = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;
    events.forEach((e) => window.addEventListener(e, onInput, { passive: true }));
    // The tick keeps idle and hidden time out even when nothing reads the clock for a while.
    const timer = window.setInterval(() => clock.current!.read(Date.now(), visible()), TICK_MS);
    return () => {
      events.forEach((e) => window.removeEventListener(e, onInput));
      window.clearInterval(timer);
    };
  }, []);

  return useMemo(
    () => ({
      get current() {
        return clock.current!.read(Date.now(), visible());
      },
    }),
    [],
  );
}
