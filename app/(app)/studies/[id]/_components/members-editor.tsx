'use client';

import { useState, useTransition } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { setMembersAction } from '../../actions';

type Props = {
  studyId: number;
  /**
   * Whether the study's kind settles disagreements by an adjudicator; the lead then also chooses how the items are
   * spread over the reviewers and who adjudicates.
   */
  adjudicated: boolean;
  reviewersPerItem: number;
  people: PersonDto[];
  chosen: string[];
  mode: 'balanced' | 'fixed_sets';
  adjudicator: string | null;
};

export function MembersEditor({
  studyId,
  adjudicated,
  reviewersPerItem,
  people,
  chosen,
  mode: initialMode,
  adjudicator: initialAdjudicator,
}: Props) {
  // Order matters for fixed sets: consecutive reviewers form a group.
  const [selected, setSelected] = useState<string[]>(chosen);
  const [mode, setMode] = useState(initialMode);
  const [adjudicator, setAdjudicator] = useState(initialAdjudicator ?? '');
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  const toggle = (u: string) => setSelected((s) => (s.includes(u) ? s.filter((x) => x !== u) : [...s, u]));
  const groups =
    mode === 'fixed_sets'
      ? Array.from({ length: Math.ceil(selected.length / reviewersPerItem) }, (_, g) =>
          selected.slice(g * reviewersPerItem, (g + 1) * reviewersPerItem),
        )
      : [];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const res = await setMembersAction(studyId, { usernames: selected, mode, adjudicator: adjudicator || null });
          setMessage(res.ok ? { tone: 'ok', text: `Saved: ${res.data.members.length} reviewer(s).` } : { tone: 'error', text: res.error });
        });
      }}
      className="space-y-3"
    >
      <fieldset className="grid gap-1 sm:grid-cols-2">
        <legend className="mb-1 text-sm text-slate-600">Who reviews ({reviewersPerItem} per item)</legend>
        {people.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="usernames"
              value={p.username}
              checked={selected.includes(p.username)}
              onChange={() => toggle(p.username)}
            />
            {p.displayName}{' '}
            <span className="text-slate-500">
              ({p.username}, {p.role})
            </span>
          </label>
        ))}
      </fieldset>
      {adjudicated && (
        <>
          <fieldset className="space-y-1 text-sm">
            <legend className="mb-1 text-slate-600">Assignment</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="mode" checked={mode === 'balanced'} onChange={() => setMode('balanced')} />
              Balanced: each item to the least-loaded reviewers
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="mode" checked={mode === 'fixed_sets'} onChange={() => setMode('fixed_sets')} />
              Fixed sets (KMP scheme): reviewers in the order ticked form groups of {reviewersPerItem}; the items are split into one set per
              group
            </label>
          </fieldset>
          {mode === 'fixed_sets' && groups.length > 0 && (
            <ol className="list-decimal pl-5 text-sm text-slate-700" aria-label="Groups">
              {groups.map((g, i) => (
                <li key={i}>
                  Set {i + 1}: {g.join(' + ')}
                  {g.length < reviewersPerItem && <span className="text-red-700"> (incomplete)</span>}
                </li>
              ))}
            </ol>
          )}
          <label className="block text-sm">
            <span className="block text-slate-600">Adjudicator (settles disagreements; not one of the reviewers)</span>
            <select
              value={adjudicator}
              onChange={(e) => setAdjudicator(e.target.value)}
              className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
            >
              <option value="">None (leads adjudicate)</option>
              {people.map((p) => (
                <option key={p.id} value={p.username}>
                  {p.displayName} ({p.username})
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm disabled:opacity-60"
      >
        {pending ? 'Saving…' : 'Save people'}
      </button>
      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}
