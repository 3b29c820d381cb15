'use client';

import { useState, useTransition } from 'react';
import { Card } from '@/components/ui/card';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { openRubricHybridQueueAction } from '../actions';

type Props = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  lenient: boolean;
  people: PersonDto[];
  studyOpen: boolean;
};

/** Sends the replies a rubric hybrid plan routes to people into the chosen reviewers' queues. */
export function RubricQueueForm({ studyId, judge, criterion, target, lenient, people, studyOpen }: Props) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [perTutor, setPerTutor] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  if (!studyOpen) return <p className="text-sm text-slate-500">Open the study to send the routed replies to people.</p>;
  return (
    <Card title="Open a review queue">
      <form
        className="space-y-2"
        aria-label="Open a review queue"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            const res = await openRubricHybridQueueAction(studyId, { judge, criterion, target, lenient, perTutor, usernames: chosen });
            setMessage(
              res.ok
                ? {
                    tone: 'ok',
                    text: `Queued ${res.data.routed + res.data.extra} repl(ies) (${res.data.routed} routed, ${res.data.extra} random checks): ${res.data.assignments.map((a) => `${a.username} ${a.items}`).join(', ')}.`,
                  }
                : { tone: 'error', text: res.error },
            );
          });
        }}
      >
        <p className="text-sm text-slate-600">
          Send the unreviewed replies this plan routes to people — every reply the judge gave a label the plan does not trust, plus the
          random checks the target needs — to these reviewers (one review each; their reviews become ground truth):
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
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={perTutor} onChange={(e) => setPerTutor(e.target.checked)} />
          Follow each tutor’s own plan (its own trusted label and random checks)
        </label>
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
    </Card>
  );
}
