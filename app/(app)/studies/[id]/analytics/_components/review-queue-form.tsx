'use client';

import { type ReactNode, useState, useTransition } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';

type Opened = { assignments: { username: string; items: number }[] };
type Result<T extends Opened> = { ok: true; data: T } | { ok: false; error: string };

/**
 * The form of a hybrid plan that sends what it routes to people into the chosen reviewers' queues: the reviewers to
 * pick, any further choice (`children`), the button and what came of it.
 */
export function ReviewQueueForm<T extends Opened>({
  className,
  intro,
  people,
  open,
  opened,
  children,
}: {
  className: string;
  intro: ReactNode;
  people: PersonDto[];
  open: (usernames: string[]) => Promise<Result<T>>;
  /** What the queue got, in words. */
  opened: (data: T) => string;
  children?: ReactNode;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className={className}
      aria-label="Open a review queue"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const res = await open(chosen);
          setMessage(res.ok ? { tone: 'ok', text: opened(res.data) } : { tone: 'error', text: res.error });
        });
      }}
    >
      <p className="text-sm text-slate-600">{intro}</p>
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
      {children}
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

/** "name items" for each reviewer who got some. */
export const assignmentsText = (data: Opened) => data.assignments.map((a) => `${a.username} ${a.items}`).join(', ');
