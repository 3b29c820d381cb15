'use client';

import { useState, useTransition } from 'react';
import type { PersonDto } from '@/lib/server/users';
import { setMembersAction } from '../../actions';

export function MembersEditor({ studyId, people, chosen }: { studyId: number; people: PersonDto[]; chosen: string[] }) {
  const [selected, setSelected] = useState(new Set(chosen));
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  const toggle = (u: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(u)) next.delete(u);
      else next.add(u);
      return next;
    });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const res = await setMembersAction(studyId, [...selected]);
          setMessage(res.ok ? { tone: 'ok', text: `Saved: ${res.data.members.length} reviewer(s).` } : { tone: 'error', text: res.error });
        });
      }}
      className="space-y-3"
    >
      <fieldset className="grid gap-1 sm:grid-cols-2">
        <legend className="mb-1 text-sm text-slate-600">Who reviews</legend>
        {people.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="usernames" value={p.username} checked={selected.has(p.username)} onChange={() => toggle(p.username)} />
            {p.displayName} <span className="text-slate-400">({p.username}, {p.role})</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={pending} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm disabled:opacity-60">
        {pending ? 'Saving…' : 'Save reviewers'}
      </button>
      {message && (
        <p role={message.tone === 'error' ? 'alert' : 'status'} className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
          {message.text}
        </p>
      )}
    </form>
  );
}
