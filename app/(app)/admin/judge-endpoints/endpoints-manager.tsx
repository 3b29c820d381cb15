'use client';

import { useState } from 'react';
import { useActionFeedback } from '@/components/ui/use-action-feedback';
import type { JudgeEndpointDto } from '@/lib/server/judges/dto';
import { createJudgeEndpointAction, deleteJudgeEndpointAction, updateJudgeEndpointAction } from './actions';

const input = 'mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm';

const FIELDS = [
  ['name', 'Name', 'e.g. lab-vllm'],
  ['baseUrl', 'Base URL', 'https://api.openai.com/v1'],
  ['keyEnv', 'Key environment variable (name only; empty for none)', 'OPENAI_API_KEY'],
  ['priceIn', 'Price per million input tokens ($)', ''],
  ['priceOut', 'Price per million output tokens ($)', ''],
] as const;

const formValues = (e: JudgeEndpointDto) => ({
  name: e.name,
  baseUrl: e.baseUrl,
  keyEnv: e.keyEnv ?? '',
  models: e.models.join('\n'),
  priceIn: e.priceIn === null ? '' : String(e.priceIn),
  priceOut: e.priceOut === null ? '' : String(e.priceOut),
});

/** The admin's list of judge endpoints, with one form that creates an endpoint or edits the one chosen. */
export function EndpointsManager({ endpoints }: { endpoints: JudgeEndpointDto[] }) {
  const [editing, setEditing] = useState<JudgeEndpointDto | null>(null);
  const { pending, message, fieldErrors, run } = useActionFeedback();

  const values = editing ? formValues(editing) : null;
  return (
    <div className="space-y-6">
      <form
        key={editing?.id ?? 'new'}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
        aria-label={editing ? `Edit endpoint ${editing.name}` : 'New judge endpoint'}
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
          if (editing)
            run(
              () => updateJudgeEndpointAction(editing.id, data),
              `Saved ${data.name}.`,
              () => setEditing(null),
            );
          else
            run(
              () => createJudgeEndpointAction(data),
              `Added ${data.name}.`,
              () => form.reset(),
            );
        }}
      >
        {FIELDS.map(([name, label, placeholder]) => (
          <label key={name} className="block text-sm">
            <span className="text-slate-600">{label}</span>
            <input
              name={name}
              defaultValue={values?.[name] ?? ''}
              placeholder={placeholder}
              className={input}
              aria-invalid={fieldErrors[name] ? true : undefined}
            />
            {fieldErrors[name] && <span className="block text-xs text-red-700">{fieldErrors[name]}</span>}
          </label>
        ))}
        <label className="block text-sm sm:row-span-2">
          <span className="text-slate-600">Models leads may choose (one per line)</span>
          <textarea
            name="models"
            rows={4}
            defaultValue={values?.models ?? ''}
            className={`${input} font-mono`}
            aria-invalid={fieldErrors.models ? true : undefined}
          />
          {fieldErrors.models && <span className="block text-xs text-red-700">{fieldErrors.models}</span>}
        </label>
        <div className="flex gap-2 sm:col-span-2">
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
          >
            {editing ? 'Save endpoint' : 'Add endpoint'}
          </button>
          {editing && (
            <button type="button" onClick={() => setEditing(null)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">
              Cancel editing
            </button>
          )}
        </div>
      </form>

      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}
        >
          {message.text}
        </p>
      )}

      {endpoints.length === 0 ? (
        <p className="text-sm text-slate-600">No endpoint yet: leads cannot start a judge run until you add one.</p>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" aria-label="Judge endpoints">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th className="px-3 py-2">Name</th>
              <th className="px-3 py-2">Base URL</th>
              <th className="px-3 py-2">Key variable</th>
              <th className="px-3 py-2">Models</th>
              <th className="px-3 py-2">Prices in / out ($ per M)</th>
              <th className="px-3 py-2">Actions</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <tr key={e.id} className="border-t border-slate-100" aria-label={`Endpoint ${e.name}`}>
                <td className="px-3 py-1.5 font-medium">{e.name}</td>
                <td className="px-3 py-1.5 font-mono break-all">{e.baseUrl}</td>
                <td className="px-3 py-1.5 font-mono">
                  {e.keyEnv ?? <span className="font-sans text-slate-500">none</span>}
                  {e.keyEnv && !e.keySet && <span className="block font-sans text-xs text-amber-700">not set on this server</span>}
                </td>
                <td className="px-3 py-1.5 font-mono">{e.models.join(', ')}</td>
                <td className="px-3 py-1.5">
                  {e.priceIn ?? '—'} / {e.priceOut ?? '—'}
                </td>
                <td className="space-x-2 px-3 py-1.5 whitespace-nowrap">
                  <button
                    type="button"
                    disabled={pending}
                    onClick={() => setEditing(e)}
                    className="rounded border border-slate-300 px-2 py-0.5"
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    disabled={pending}
                    onClick={() => {
                      if (window.confirm(`Remove the endpoint ${e.name}? Leads can no longer start runs on it.`))
                        run(
                          () => deleteJudgeEndpointAction(e.id),
                          `Removed ${e.name}.`,
                          () => setEditing(null),
                        );
                    }}
                    className="rounded border border-slate-300 px-2 py-0.5"
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
