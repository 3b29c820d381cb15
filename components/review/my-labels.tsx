import type { ReactNode } from 'react';

/** One row of "My labels": what was judged, and the label its reviewer gave (— for none). */
export type MyLabelRow = { id: string; name: string; description?: string; label: string };

/**
 * A submitted item beside the labels its reviewer gave, as the submission history shows it for every kind that
 * labels rows (criteria, dimensions).
 */
export function ItemWithMyLabels({ item, rows, note }: { item: ReactNode; rows: MyLabelRow[]; note?: ReactNode }) {
  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-4">{item}</div>
      <section aria-labelledby="my-labels" className="min-w-0">
        <h2 id="my-labels" className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
          My labels
        </h2>
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
          {rows.map((r) => (
            <li key={r.id} className="flex items-baseline justify-between gap-3 px-3 py-2" data-testid={`my-label-${r.id}`}>
              <span className="min-w-0" title={r.description}>
                {r.name}
              </span>
              <span className="shrink-0 font-medium">{r.label}</span>
            </li>
          ))}
        </ul>
        {note}
      </section>
    </div>
  );
}
