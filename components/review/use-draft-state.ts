'use client';

import { useCallback, useRef, useState } from 'react';

/**
 * The answers a reviewer is giving on one item, in state and in a ref written in the same call: key handlers and
 * timers always read the newest, even when two keys arrive before React renders. `change` does nothing when the
 * function hands back the same object.
 */
export function useDraftState<D>(initial: () => D) {
  const [draft, setDraft] = useState<D>(initial);
  const ref = useRef(draft);
  const change = useCallback((fn: (d: D) => D) => {
    const next = fn(ref.current);
    if (next === ref.current) return;
    ref.current = next;
    setDraft(next);
  }, []);
  return [draft, ref, change] as const;
}
