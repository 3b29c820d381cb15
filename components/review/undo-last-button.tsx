'use client';

import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';

/** "Undo last" in the action bar of a review panel, shown while the reviewer's last submission can be taken back. */
export function UndoLastButton({ available, onUndo, disabled }: { available: boolean; onUndo: () => void; disabled: boolean }) {
  if (!available) return null;
  return (
    <Button variant="secondary" onClick={onUndo} disabled={disabled}>
      Undo last <Kbd aria-hidden="true">u</Kbd>
    </Button>
  );
}
