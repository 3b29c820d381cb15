'use client';
import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the server's HTML and until React has taken over the page in the browser, true from then on. A field
 * whose value React controls is read-only until then: what someone typed into the server's HTML before that would
 * be mixed with or replaced by the value React then puts in (on a slow machine that takes a second or more).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
