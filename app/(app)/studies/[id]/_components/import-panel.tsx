'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { importFormat } from '@/lib/kinds/import-formats';
import type { ImportError } from '@/lib/validation/import-errors';

type ItemsReport = { records: number; inserted: number; unchanged: number; annotations?: { inserted: number; unchanged: number } };
type JudgeReport = { run: string; records: number; labels: number; unparsed: { item: string; line: number; message: string }[] };

type Outcome =
  { ok: true; data: ItemsReport | JudgeReport } | { ok: false; error: string; details?: { errors?: ImportError[]; errorCount?: number } };

const ENDPOINT = { items: 'import', judge: 'judge', annotations: 'annotations' } as const;
const FORM_NAME = { items: 'Import items', judge: 'Import a judge run', annotations: 'Import prior annotations' } as const;

/** Upload of items (`what="items"`), of an LLM-judge run (`what="judge"`) or of prior annotations, with the import report. */
export function ImportPanel({
  studyId,
  formats,
  what = 'items',
}: {
  studyId: number;
  formats: readonly string[];
  what?: 'items' | 'judge' | 'annotations';
}) {
  const router = useRouter();
  const [format, setFormat] = useState(formats[0]);
  const [run, setRun] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function upload(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setOutcome(null);
    try {
      const query = new URLSearchParams({ format, filename: file.name, ...(what === 'judge' && run.trim() ? { judge: run.trim() } : {}) });
      const res = await fetch(`/api/studies/${studyId}/${ENDPOINT[what]}?${query}`, {
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
    <form onSubmit={upload} className="space-y-3" aria-label={FORM_NAME[what]}>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block text-slate-600">Format</span>
          <select
            value={format}
            onChange={(e) => setFormat(e.target.value)}
            className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
          >
            {formats.map((f) => (
              <option key={f} value={f}>
                {importFormat(what, f)?.name ?? f}
              </option>
            ))}
          </select>
        </label>
        {what === 'judge' && (
          <label className="text-sm">
            <span className="block text-slate-600">
              {importFormat('judge', format)?.judgeInFile ? 'Judge in the file (optional)' : 'Run name (optional)'}
            </span>
            <input
              value={run}
              onChange={(e) => setRun(e.target.value)}
              placeholder="from the file"
              className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
            />
          </label>
        )}
        <label className="text-sm">
          <span className="block text-slate-600">File</span>
          <input
            type="file"
            accept=".jsonl,.json,.ndjson,application/json"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="mt-1 text-sm"
          />
        </label>
        <button
          type="submit"
          disabled={!file || busy}
          className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
        >
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {outcome?.ok && (
        <div role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="import-result">
          {'run' in outcome.data ? (
            <JudgeResult report={outcome.data} />
          ) : what === 'annotations' ? (
            <p>
              Imported {outcome.data.inserted.toLocaleString('en-US')} prior annotation(s); {outcome.data.unchanged.toLocaleString('en-US')}{' '}
              were already present and unchanged.
            </p>
          ) : (
            <ItemsResult report={outcome.data} />
          )}
        </div>
      )}
      {outcome && !outcome.ok && (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="import-errors">
          <p className="font-medium">{outcome.error}</p>
          {!!outcome.details?.errors?.length && (
            <ul className="mt-2 max-h-72 list-disc overflow-auto pl-5 font-mono text-xs">
              {outcome.details.errors.map((e, i) => (
                <li key={i}>
                  {/* Adapter formats number records and say where themselves: "record 12 (item …), path: …". */}
                  {e.message.startsWith(`record ${e.line}`) ? e.message : `line ${e.line}${e.path ? `, ${e.path}` : ''}: ${e.message}`}
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

function ItemsResult({ report }: { report: ItemsReport }) {
  return (
    <p>
      Imported {report.inserted.toLocaleString('en-US')} new item(s); {report.unchanged.toLocaleString('en-US')} were already present and
      unchanged.
      {report.annotations && ` With them, ${report.annotations.inserted.toLocaleString('en-US')} prior annotation(s).`}
    </p>
  );
}

function JudgeResult({ report }: { report: JudgeReport }) {
  return (
    <>
      <p>
        Imported the run “{report.run}”: {report.labels.toLocaleString('en-US')} verdicts from {report.records.toLocaleString('en-US')}{' '}
        records.
      </p>
      {report.unparsed.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer">
            {report.unparsed.length} verdict(s) could not be read and were left out; their items count as unjudged
          </summary>
          <ul className="mt-1 max-h-48 list-disc overflow-auto pl-5 font-mono text-xs">
            {report.unparsed.map((u) => (
              <li key={`${u.item}-${u.line}`}>
                {u.item} (record {u.line}): {u.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
