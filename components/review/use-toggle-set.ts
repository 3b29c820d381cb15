'use client';

import { useCallback, useState } from 'react';

/** A set of ids shown open (the details of a criterion, say), and the toggle that opens or closes one. */
export function useToggleSet() {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  return [open, toggle] as const;
}
