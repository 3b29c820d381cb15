/* What the judge-runs panel's pieces share: the button and field classes and the one-line outcome message. */

export const btn = 'rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50 disabled:opacity-50';
export const primary = 'rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50';
export const field = 'mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm';

export function Message({ m }: { m: { tone: 'ok' | 'error'; text: string } | null }) {
  if (!m) return null;
  return (
    <p role={m.tone === 'error' ? 'alert' : 'status'} className={m.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
      {m.text}
    </p>
  );
}

export function duration(s: number | null) {
  if (s === null) return '—';
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
