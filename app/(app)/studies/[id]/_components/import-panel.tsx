'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ImportError } from '@/lib/validation/import-errors';

type Outcome =
  | { ok: true; data: { records: number; inserted: number; unchanged: number } }
  | { ok: false; error: string; details?: { errors?: ImportError[]; errorCount?: number } };

export function ImportPanel({ studyId, formats }: { studyId: number; formats: readonly string[] }) {
  const router = useRouter();
  const [format, setFormat] = useState(formats[0]);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function upload(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setOutcome(null);
    try {
      const res = await fetch(`/api/studies/${studyId}/import?format=${encodeURIComponent(format)}&filename=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': 'application/x-ndjson' },
      });
      setOutcome((await res.json()) as Outcome);
      if (res.ok) router.refresh();
    } catch {
      setOutcome({ ok: false, error: 'The upload failed before the server answered; nothing was imported.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={upload} className="space-y-3" aria-label="Import items">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block text-slate-600">Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value)} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5">
            {formats.map((f) => (
              <option key={f} value={f}>
                {f === 'concord' ? 'Concord JSONL' : f === 'mathdial' ? 'MathDial JSONL' : f}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block text-slate-600">File</span>
          <input type="file" accept=".jsonl,.json,.ndjson,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} className="mt-1 text-sm" />
        </label>
        <button type="submit" disabled={!file || busy} className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60">
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {outcome?.ok && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="import-result">
          Imported {outcome.data.inserted.toLocaleString('en-US')} new item(s); {outcome.data.unchanged.toLocaleString('en-US')} were already
          present and unchanged.
        </p>
      )}
      {outcome && !outcome.ok && (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="import-errors">
          <p className="font-medium">{outcome.error}</p>
          {!!outcome.details?.errors?.length && (
            <ul className="mt-2 max-h-72 list-disc overflow-auto pl-5 font-mono text-xs">
              {outcome.details.errors.map((e, i) => (
                <li key={i}>
                  line {e.line}
                  {e.path ? `, ${e.path}` : ''}: {e.message}
                </li>
              ))}
            </ul>
          )}
          {(outcome.details?.errorCount ?? 0) > (outcome.details?.errors?.length ?? 0) && (
            <p className="mt-1 text-xs">… and {outcome.details!.errorCount! - outcome.details!.errors!.length} more.</p>
          )}
        </div>
      )}
    </form>
  );
}
