'use client';

import { useCallback, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { RichText } from '@/components/ui/rich-text';
import { useReviewKeys } from './use-review-keys';

const STORAGE_KEY = 'concord.guidelines-open';

/**
 * Whether the guidelines panel is open. It stays as the reviewer left it, from item to item and across reloads
 * (kept in this browser), so they can read while they work.
 */
export function useGuidelinesOpen() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (window.localStorage.getItem(STORAGE_KEY) === '1') setOpen(true);
  }, []);
  const toggle = useCallback(() => {
    setOpen((was) => {
      window.localStorage.setItem(STORAGE_KEY, was ? '0' : '1');
      return !was;
    });
  }, []);
  return { open, toggle };
}

/** The button in the screen's header that opens and closes the panel (also `g`). */
export function GuidelinesToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  useReviewKeys({
    onKey: (event) => {
      if (event.key !== 'g') return;
      event.preventDefault();
      onToggle();
    },
  });
  return (
    <Button variant="secondary" size="sm" onClick={onToggle} aria-expanded={open} aria-controls="guidelines-panel">
      {open ? 'Hide guidelines' : 'Guidelines'} <Kbd aria-hidden="true">g</Kbd>
    </Button>
  );
}

/**
 * The study's guidelines in a panel at the right edge of the window. Not a dialog: the item stays usable (and the
 * keys keep working) while it is open; the screen makes room for it, and the review screen's bar at the foot stays
 * above it, so its buttons are never covered.
 */
export function GuidelinesPanel({ guidelines, open, onClose }: { guidelines: string; open: boolean; onClose: () => void }) {
  // Kept in the page while closed (hidden), so opening it is instant and its text is there from the start.
  return (
    <aside
      id="guidelines-panel"
      aria-labelledby="guidelines-panel-heading"
      data-testid="guidelines-panel"
      hidden={!open}
      className="fixed inset-y-0 right-0 z-[5] flex w-full max-w-[22rem] flex-col border-l border-slate-200 bg-white shadow-xl [&[hidden]]:hidden"
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id="guidelines-panel-heading" className="text-sm font-semibold">
          Guidelines
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close <Kbd aria-hidden="true">g</Kbd>
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3 pb-40 text-sm" tabIndex={0} data-scroll-region>
        <RichText text={guidelines} />
      </div>
    </aside>
  );
}
