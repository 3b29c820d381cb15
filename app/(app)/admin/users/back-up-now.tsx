'use client';

import { useState, useTransition } from 'react';
import { backUpNowAction } from './actions';

/** Writes one verified backup at once (before an upgrade, or when no schedule is set), and says how it went. */
export function BackUpNowButton() {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-3 pt-1">
      <button
        type="button"
        disabled={pending}
        className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-50"
        onClick={() =>
          start(async () => {
            const res = await backUpNowAction();
            if (!res.ok) setMessage({ ok: false, text: res.error });
            else if (!res.data.ok) setMessage({ ok: false, text: `The backup failed: ${res.data.error}` });
            else setMessage({ ok: true, text: `Backed up: ${res.data.name}.` });
          })
        }
      >
        {pending ? 'Backing up…' : 'Back up now'}
      </button>
      {message ? (
        <span role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-emerald-700' : 'text-red-700'} data-testid="back-up-now-result">
          {message.text}
        </span>
      ) : null}
    </div>
  );
}
