'use client';

import { Link } from '@/components/ui/link';
import { useState, useTransition } from 'react';
import type { GoldListItemDto } from '@/lib/server/review/dto';
import { setItemGoldAction } from '../gold-actions';

/**
 * The study's gold items on the lead's items page, each with its answers and a way to unmark it; an item is marked
 * gold from its own page, where its answer is chosen (docs/decisions/0030).
 */
export function GoldItems({ studyId, items }: { studyId: number; items: GoldListItemDto[] }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4" data-testid="gold-items">
      <summary className="cursor-pointer text-sm font-medium">Gold items ({items.length})</summary>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">None yet: open an item and set its gold answer.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {items.map((g) => (
            <li key={g.itemId} className="flex flex-wrap items-center gap-3" data-testid={`gold-item-${g.externalId}`}>
              <Link href={`/studies/${studyId}/items/${g.itemId}`} className="text-accent-700 hover:underline">
                {g.externalId}
              </Link>
              <span className="text-slate-600">
                {Object.entries(g.labels)
                  .map(([unit, label]) => `${unit}: ${label}`)
                  .join(', ')}
              </span>
              <button
                type="button"
                className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 disabled:opacity-60"
                disabled={pending}
                onClick={() =>
                  start(async () => {
                    const res = await setItemGoldAction(studyId, g.itemId, Object.fromEntries(Object.keys(g.labels).map((u) => [u, ''])));
                    setError(res.ok ? null : (res.error ?? 'Failed.'));
                  })
                }
              >
                Not gold
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </details>
  );
}
