'use client';

import { useActionState, useRef, useState } from 'react';
import { formatCatalogError } from '@/lib/validation/rubric';
import { RUBRIC_CATALOGS, RUBRIC_CATALOG_NAMES } from '@/lib/validation/rubric-catalogs';
import { createStudyAction, type FormState } from '../actions';

function Field({
  id,
  label,
  error,
  children,
  hint,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm';

export function NewStudyForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createStudyAction, undefined);
  const v = state?.values ?? {};
  const fe = state?.fieldErrors ?? {};
  const [kind, setKind] = useState(v.kind ?? 'flow_review');
  return (
    <form action={action} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <Field id="kind" label="Kind" error={fe.kind}>
        {/* React resets a form after its action, and a select resets to the option it was first rendered with: a new
            key per attempt renders it anew with what was submitted. */}
        <select
          key={`kind-${state?.attempt ?? 0}`}
          id="kind"
          name="kind"
          defaultValue={v.kind ?? 'flow_review'}
          onChange={(e) => setKind(e.target.value)}
          className={input}
        >
          <option value="flow_review">Flow review — verify, truncate or discard dialogue flows</option>
          <option value="pairwise">Pairwise — two blinded tutor replies judged per criterion</option>
          <option value="rubric">Rubric — one reply (or dialogue) labelled on each dimension</option>
        </select>
      </Field>
      {kind === 'rubric' && <DimensionsField state={state} />}
      <Field id="name" label="Name" error={fe.name}>
        <input id="name" name="name" required defaultValue={v.name} className={input} aria-invalid={!!fe.name} />
      </Field>
      <Field id="guidelines" label="Guidelines (Markdown, shown to reviewers)" error={fe.guidelines}>
        <textarea id="guidelines" name="guidelines" rows={8} defaultValue={v.guidelines} className={`${input} font-mono`} />
      </Field>
      <div className="grid grid-cols-3 gap-4">
        <Field id="payRate" label="Pay per item" error={fe.payRate} hint="In your currency, e.g. 0.40">
          <input id="payRate" name="payRate" inputMode="decimal" defaultValue={v.payRate ?? '0'} className={input} />
        </Field>
        <Field id="reviewersPerItem" label="Reviewers per item" error={fe.reviewersPerItem}>
          <input
            id="reviewersPerItem"
            name="reviewersPerItem"
            type="number"
            min={1}
            max={10}
            defaultValue={v.reviewersPerItem}
            placeholder="1 for flows, 2 for pairwise and rubric"
            className={input}
          />
        </Field>
        <Field id="seed" label="Assignment seed" error={fe.seed} hint="Optional; fixes the draw">
          <input id="seed" name="seed" inputMode="numeric" defaultValue={v.seed} className={input} />
        </Field>
      </div>
      {state?.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? 'Creating…' : 'Create study'}
      </button>
    </form>
  );
}

const CATALOG_TITLES: Record<string, string> = {
  'mrbench-v3': 'MRBench V3 — four dimensions, No / To some extent / Yes',
  'mrbench-v1': 'MRBench V1 — eight pedagogical dimensions',
  'ok-reject': 'Tutoring judge — answer withheld, helpful (REJECT / OK)',
};

/** A rubric study's dimensions: a shipped catalog, or a JSON file of one's own (loaded or pasted). */
function DimensionsField({ state }: { state: FormState }) {
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
