'use client';

import { useRef, useState } from 'react';
import type { FormState } from '@/app/(app)/studies/actions';
import { formatCatalogError } from '@/lib/validation/rubric';
import { RUBRIC_CATALOGS, RUBRIC_CATALOG_NAMES } from '@/lib/validation/rubric-catalogs';

// The new-study form's field style, so the rubric's fields sit in the form like its own.
const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm';

const CATALOG_TITLES: Record<string, string> = {
  'mrbench-v3': 'MRBench V3 — four dimensions, No / To some extent / Yes',
  'mrbench-v1': 'MRBench V1 — eight pedagogical dimensions',
  'ok-reject': 'Tutoring judge — answer withheld, helpful (REJECT / OK)',
};

/** A rubric study's dimensions: a shipped catalog, or a JSON file of one's own (loaded or pasted). */
export function RubricDimensionsField({ state }: { state: FormState }) {
  const v = state?.values ?? {};
  const [catalog, setCatalog] = useState(v.catalog ?? 'mrbench-v3');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const errors = state?.catalogErrors ?? [];
  const shipped = catalog !== 'custom' ? RUBRIC_CATALOGS[catalog as keyof typeof RUBRIC_CATALOGS] : null;

  async function load(file: File | undefined) {
    setReadError(null);
    if (!file) return;
    if (file.size > 1 << 20) {
      setReadError('The file is larger than 1 MB; a catalog is a short JSON array.');
      return;
    }
    const text = await file.text();
    if (textRef.current) textRef.current.value = text;
  }

  return (
    <fieldset className="space-y-2 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-700">Dimensions</legend>
      <label htmlFor="catalog" className="block text-sm text-slate-700">
        Catalog
      </label>
      <select
        key={`catalog-${state?.attempt ?? 0}`}
        id="catalog"
        name="catalog"
        defaultValue={v.catalog ?? 'mrbench-v3'}
        onChange={(e) => setCatalog(e.target.value)}
        className={input}
      >
        {RUBRIC_CATALOG_NAMES.map((n) => (
          <option key={n} value={n}>
            {CATALOG_TITLES[n] ?? n}
          </option>
        ))}
        <option value="custom">My own — upload or paste a JSON file</option>
      </select>
      {shipped && (
        <ul className="space-y-0.5 text-xs text-slate-600" data-testid="catalog-preview">
          {shipped.map((d) => (
            <li key={d.id}>
              <span className="font-medium text-slate-800">{d.name}</span>: {d.labels.join(' / ')} (desired {d.desired})
            </li>
          ))}
        </ul>
      )}
      {catalog === 'custom' && (
        <>
          <label className="block text-sm text-slate-700">
            Catalog file
            <input
              type="file"
              accept=".json,application/json"
              onChange={(e) => void load(e.target.files?.[0])}
              className="mt-1 block text-sm"
            />
          </label>
          {readError && <p className="text-sm text-red-700">{readError}</p>}
          <label htmlFor="dimensionsText" className="block text-sm text-slate-700">
            Catalog JSON (an array of dimensions, labels worst first)
          </label>
          <textarea
            key={`dimensions-${state?.attempt ?? 0}`}
            id="dimensionsText"
            name="dimensionsText"
            rows={8}
            ref={textRef}
            defaultValue={v.dimensionsText ?? ''}
            placeholder='[{"id": "leakage", "name": "Answer withheld", "labels": ["REJECT", "OK"], "desired": "OK"}]'
            className={`${input} font-mono`}
            aria-invalid={errors.length > 0}
          />
        </>
      )}
      {errors.length > 0 && (
        <ul role="alert" data-testid="catalog-errors" className="list-disc space-y-0.5 pl-5 text-sm text-red-700">
          {errors.map((e, i) => (
            <li key={i}>{formatCatalogError(e)}</li>
          ))}
        </ul>
      )}
      {!errors.length && state?.fieldErrors?.dimensions && <p className="text-sm text-red-700">{state.fieldErrors.dimensions}</p>}
    </fieldset>
  );
}
