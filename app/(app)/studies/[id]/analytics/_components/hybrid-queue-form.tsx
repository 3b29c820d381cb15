'use client';

import { useState, useTransition } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { openHybridQueueAction } from '../actions';

type Props = { studyId: number; judge: string; criterion: string; target: number; people: PersonDto[]; studyOpen: boolean };

/** Sends the items this plan routes to people into the chosen reviewers' queues. */
export function HybridQueueForm({ studyId, judge, criterion, target, people, studyOpen }: Props) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  if (!studyOpen) return <p className="mt-4 text-sm text-slate-500">Open the study to send the routed items to people.</p>;
  return (
    <form
      className="mt-4 space-y-2 border-t border-slate-100 pt-4"
      aria-label="Open a review queue"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const res = await openHybridQueueAction(studyId, { judge, criterion, target, usernames: chosen });
          setMessage(
            res.ok
              ? {
                  tone: 'ok',
                  text: `Queued ${res.data.routed + res.data.extra} item(s) (${res.data.routed} routed, ${res.data.extra} random checks of accepted labels): ${res.data.assignments.map((a) => `${a.username} ${a.items}`).join(', ')}.`,
                }
              : { tone: 'error', text: res.error },
          );
        });
      }}
    >
      <p className="text-sm text-slate-600">
        Send the unreviewed items this plan routes to people — every item the judge put in a reviewed class, plus the random checks the
        target needs — to these reviewers (one review per item; their reviews become ground truth):
      </p>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <legend className="sr-only">Reviewers</legend>
        {people.map((p) => (
          <label key={p.id} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={chosen.includes(p.username)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, p.username] : c.filter((u) => u !== p.username)))}
            />
            {p.displayName}
          </label>
        ))}
      </fieldset>
      <button
        type="submit"
        disabled={pending || chosen.length === 0}
        className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
      >
        {pending ? 'Opening…' : 'Open review queue'}
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
