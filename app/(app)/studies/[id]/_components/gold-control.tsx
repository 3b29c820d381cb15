'use client';

import { useState, useTransition } from 'react';
import type { GoldItemDto } from '@/lib/server/review/dto';
import { setItemGoldAction } from '../gold-actions';

const button = 'rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60';

/**
 * The item's gold answer for its lead: one choice per unit in the kind's own labels, "not gold" to clear it.
 * Reviewers are never told which items are gold (docs/decisions/0030).
 */
export function GoldControl({ studyId, gold }: { studyId: number; gold: GoldItemDto }) {
  const [labels, setLabels] = useState<Record<string, string>>(Object.fromEntries(gold.units.map((u) => [u.id, gold.labels[u.id] ?? ''])));
  const [pending, start] = useTransition();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const isGold = Object.keys(gold.labels).length > 0;
  return (
    <section aria-labelledby="gold-heading" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="gold-control">
      <h2 id="gold-heading" className="mb-1 font-semibold">
        Gold answer
      </h2>
      <p className="mb-3 text-sm text-slate-600" data-testid="gold-state">
        {isGold ? 'This item is a gold item: reviewers who get it are scored against these answers.' : 'Not a gold item.'}
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            const res = await setItemGoldAction(studyId, gold.itemId, labels);
            const fields = !res.ok && res.fieldErrors ? Object.values(res.fieldErrors).join(' ') : '';
            setNote(res.ok ? { ok: true, text: 'Gold answer saved.' } : { ok: false, text: [res.error, fields].filter(Boolean).join(' ') });
          });
        }}
      >
        {gold.units.map((u) => (
          <label key={u.id} className="text-sm">
            {u.id}
            <select
              className="mt-1 block rounded-md border border-slate-300 px-2 py-1.5 text-sm"
              name={`gold-${u.id}`}
              value={labels[u.id]}
              onChange={(e) => setLabels({ ...labels, [u.id]: e.target.value })}
            >
              <option value="">— not gold —</option>
              {u.labels.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" className={button} disabled={pending}>
          Save gold answer
        </button>
      </form>
      {note && (
        <p role={note.ok ? 'status' : 'alert'} className={`mt-2 text-sm ${note.ok ? 'text-emerald-700' : 'text-red-700'}`}>
          {note.text}
        </p>
      )}
    </section>
  );
}
