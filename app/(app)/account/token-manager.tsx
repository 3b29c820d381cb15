'use client';

import { useState, useTransition } from 'react';
import type { ApiTokenDto, NewApiTokenDto } from '@/lib/server/accounts/dto';
import { TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS } from '@/lib/validation/api-tokens';
import { createTokenAction, revokeTokenAction } from './actions';

const input = 'rounded-md border border-slate-300 px-2 py-1.5 text-sm';
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

export function TokenManager({ tokens, showOwner, self }: { tokens: ApiTokenDto[]; showOwner: boolean; self: string }) {
  const [pending, start] = useTransition();
  const [made, setMade] = useState<NewApiTokenDto | null>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  return (
    <div className="space-y-4">
      <form
        aria-label="New API token"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          start(async () => {
            const res = await createTokenAction({ name: String(data.get('name') ?? ''), expiresInDays: String(data.get('days') ?? '') });
            if (res.ok) {
              setMade(res.data);
              setMessage(null);
              setFieldErrors({});
              form.reset();
            } else {
              setMade(null);
              setMessage({ tone: 'error', text: res.error });
              setFieldErrors(res.fieldErrors ?? {});
            }
          });
        }}
      >
        <label className="text-sm">
          <span className="block text-slate-600">Name</span>
          <input
            name="name"
            required
            maxLength={100}
            placeholder="e.g. lab notebook"
            className={`${input} mt-1 w-64`}
            aria-invalid={!!fieldErrors.name}
          />
          {fieldErrors.name && <span className="block max-w-64 text-xs text-red-700">{fieldErrors.name}</span>}
        </label>
        <label className="text-sm">
          <span className="block text-slate-600">Valid for (days)</span>
          <input
            name="days"
            type="number"
            min={1}
            max={TOKEN_MAX_DAYS}
            defaultValue={TOKEN_DEFAULT_DAYS}
            className={`${input} mt-1 w-28`}
            aria-invalid={!!fieldErrors.expiresInDays}
          />
          {fieldErrors.expiresInDays && <span className="block max-w-64 text-xs text-red-700">{fieldErrors.expiresInDays}</span>}
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
        >
          Make token
        </button>
      </form>

      {made && (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm" data-testid="new-token">
          <p>
            Token &ldquo;{made.name}&rdquo; made, valid until {day(made.expiresAt)}. Copy it now: it is not shown again.
          </p>
          <div className="flex items-center gap-2">
            <input
              readOnly
              value={made.token}
              aria-label="The new token"
              className={`${input} w-full font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button
              type="button"
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5"
              onClick={() => void navigator.clipboard?.writeText(made.token).then(() => setMessage({ tone: 'ok', text: 'Copied.' }))}
            >
              Copy
            </button>
          </div>
        </div>
      )}
      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}
        >
          {message.text}
        </p>
      )}

      {tokens.length === 0 ? (
        <p className="text-sm text-slate-600">No tokens yet.</p>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="tokens">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              {showOwner && <th className="px-3 py-2">Account</th>}
              <th className="px-3 py-2">Name</th>
              <th className="px-3 py-2">Ends in</th>
              <th className="px-3 py-2">Made</th>
              <th className="px-3 py-2">Expires</th>
              <th className="px-3 py-2">Last used</th>
              <th className="px-3 py-2">State</th>
              <th className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} className="border-t border-slate-100" data-testid={`token-${t.id}`}>
                {showOwner && <td className="px-3 py-2">{t.username === self ? `${t.username} (you)` : t.username}</td>}
                <td className="px-3 py-2">{t.name}</td>
                <td className="px-3 py-2 font-mono">…{t.last4}</td>
                <td className="px-3 py-2">{day(t.createdAt)}</td>
                <td className="px-3 py-2">{day(t.expiresAt)}</td>
                <td className="px-3 py-2">{t.lastUsedAt ? day(t.lastUsedAt) : 'never'}</td>
                <td className="px-3 py-2">{t.state}</td>
                <td className="px-3 py-2 text-right">
                  {t.state === 'active' && (
                    <button
                      type="button"
                      disabled={pending}
                      className="text-red-700 underline-offset-2 hover:underline disabled:opacity-60"
                      aria-label={`Revoke ${t.name}${showOwner ? ` of ${t.username}` : ''}`}
                      onClick={() => {
                        if (!window.confirm(`Revoke "${t.name}"? Scripts using it stop working at once.`)) return;
                        start(async () => {
                          const res = await revokeTokenAction(t.id);
                          setMessage(res.ok ? { tone: 'ok', text: `Revoked "${t.name}".` } : { tone: 'error', text: res.error });
                        });
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
