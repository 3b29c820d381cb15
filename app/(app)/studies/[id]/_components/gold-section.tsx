'use client';

import { useState, useTransition } from 'react';
import type { GoldAccuracyDto } from '@/lib/server/review/dto';
import { setGoldSettingsAction } from '../gold-actions';

const input = 'mt-1 block w-24 rounded-md border border-slate-300 px-3 py-1.5 text-sm';
const button = 'rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60';
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

/**
 * Gold items for the lead (docs/decisions/0030): the gold rate (fixed once the study opens) and the accuracy
 * threshold, and each reviewer's accuracy on gold with its 95 % Wilson interval.
 */
export function GoldSection({ studyId, status, gold }: { studyId: number; status: 'draft' | 'open' | 'closed'; gold: GoldAccuracyDto }) {
  const [rate, setRate] = useState(String(gold.ratePct));
  const [threshold, setThreshold] = useState(gold.alertBelowPct === null ? '' : String(gold.alertBelowPct));
  const [pending, start] = useTransition();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const save = () =>
    start(async () => {
      const res = await setGoldSettingsAction(studyId, rate, threshold);
      const fields = !res.ok && res.fieldErrors ? Object.values(res.fieldErrors).join(' ') : '';
      setNote(res.ok ? { ok: true, text: 'Gold settings saved.' } : { ok: false, text: [res.error, fields].filter(Boolean).join(' ') });
    });
  return (
    <div className="space-y-4" data-testid="gold-section">
      <p className="text-sm text-slate-600">
        {gold.goldItems} gold item(s). Mark an item gold from its page (Items → the item → Gold answer).
      </p>
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label className="text-sm">
          Gold rate (% of each queue, 0–50)
          <input
            className={input}
            name="goldRate"
            inputMode="numeric"
            value={rate}
            disabled={status !== 'draft'}
            onChange={(e) => setRate(e.target.value)}
          />
        </label>
        <label className="text-sm">
          Warn below accuracy (%)
          <input className={input} name="goldThreshold" inputMode="numeric" value={threshold} placeholder="never" onChange={(e) => setThreshold(e.target.value)} />
        </label>
        <button type="submit" className={button} disabled={pending}>
          Save gold settings
        </button>
      </form>
      {status !== 'draft' && <p className="text-xs text-slate-500">The gold rate shaped the queues when the study opened; it no longer changes.</p>}
      {note && (
        <p role={note.ok ? 'status' : 'alert'} className={`text-sm ${note.ok ? 'text-emerald-700' : 'text-red-700'}`}>
          {note.text}
        </p>
      )}
      {gold.reviewers.length > 0 && (
        <table className="w-full text-sm" data-testid="gold-table">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="py-1">Reviewer</th>
              <th>Gold items</th>
              <th>Correct</th>
              <th>Accuracy</th>
              <th>95 % interval</th>
            </tr>
          </thead>
          <tbody>
            {gold.reviewers.map((r) => (
              <tr key={r.userId} className={r.below ? 'text-red-700' : ''} data-testid={`gold-row-${r.username}`}>
                <td className="py-1">{r.displayName ?? r.username}</td>
                <td>{r.items}</td>
                <td>
                  {r.correct} / {r.compared}
                </td>
                <td>{pct(r.accuracy)}</td>
                <td>
                  {pct(r.intervals.accuracy.lower)} – {pct(r.intervals.accuracy.upper)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The notice a lead gets where a reviewer's accuracy on gold is under the threshold they set. */
export function GoldNotice({ gold }: { gold: GoldAccuracyDto }) {
  const below = gold.reviewers.filter((r) => r.below);
  if (!below.length || gold.alertBelowPct === null) return null;
  return (
    <div role="alert" data-testid="gold-notice" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      Accuracy on gold items is below {gold.alertBelowPct} % for{' '}
      {below.map((r, i) => (
        <span key={r.userId}>
          {i > 0 && ', '}
          <strong>{r.displayName ?? r.username}</strong> ({pct(r.accuracy)}, {r.correct} of {r.compared}; 95 % interval {pct(r.intervals.accuracy.lower)}–
          {pct(r.intervals.accuracy.upper)})
        </span>
      ))}
      .
    </div>
  );
}
