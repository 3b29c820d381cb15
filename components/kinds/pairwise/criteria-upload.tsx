'use client';

import { useState, useTransition } from 'react';
import { setCriteriaAction } from '@/app/(app)/studies/actions';

/** Upload of a criteria catalog (JSON array per the import formats) for a draft pairwise study. */
export function CriteriaUpload({ studyId }: { studyId: number }) {
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <label className="block text-sm">
      <span className="block text-slate-600">Replace with a catalog (JSON)</span>
      <input
        type="file"
        accept=".json,application/json"
        disabled={pending}
        className="mt-1 text-sm"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          start(async () => {
            const res = await setCriteriaAction(studyId, await file.text());
            setMessage(
              res.ok ? { tone: 'ok', text: `Catalog saved: ${res.count} criteria plus overall.` } : { tone: 'error', text: res.error },
            );
          });
        }}
      />
      {message && (
        <span
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={`mt-1 block ${message.tone === 'error' ? 'text-red-700' : 'text-emerald-700'}`}
        >
          {message.text}
        </span>
      )}
    </label>
  );
}
