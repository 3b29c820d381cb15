'use client';

import { useActionState, useState } from 'react';
import { newStudyFields } from '@/components/kinds/new-study';
import { KIND_NAMES } from '@/lib/kinds/names';
import { STUDY_KINDS } from '@/lib/validation/labels';
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
          {STUDY_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k].name} — {KIND_NAMES[k].purpose}
            </option>
          ))}
        </select>
      </Field>
      {newStudyFields(kind, { state })}
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
