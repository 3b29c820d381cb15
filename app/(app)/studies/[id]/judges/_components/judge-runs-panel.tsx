'use client';

import Link from 'next/link';
import { useState, useTransition } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { judgeRulesOf } from '@/lib/kinds/judge-rules';
import { judgeRunsKey, judgeRunsOptions } from '@/lib/query/judges';
import type { StudyKind } from '@/lib/validation/labels';
import type { JudgeEndpointChoiceDto, StudyJudgeRunDto, TemplatePreviewDto } from '@/lib/server/judges/dto';
import { previewTemplateAction, saveTemplateAction, startRunAction } from '../actions';
import { field, Message, primary, btn } from './panel-parts';
import { RunRow } from './run-row';
import { Preview } from './template-preview';

type Template = { name: string; version?: number; body: string };
type Props = {
  studyId: number;
  kind: StudyKind;
  initialRuns: StudyJudgeRunDto[];
  templates: Template[];
  shipped: Template[];
  /** The admin-configured endpoints a run may use, by name. */
  endpoints: JudgeEndpointChoiceDto[];
};

export function JudgeRunsPanel({ studyId, kind, initialRuns, templates, shipped, endpoints }: Props) {
  const [endpointName, setEndpointName] = useState(endpoints[0]?.name ?? '');
  const endpoint = endpoints.find((e) => e.name === endpointName);
  const runs = useQuery({ ...judgeRunsOptions(studyId), initialData: initialRuns });
  const qc = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const choices = [
    ...templates.map((t) => ({ ...t, label: `${t.name} v${t.version} (this study)` })),
    ...shipped.map((t) => ({ ...t, label: `${t.name} (shipped)` })),
  ];
  const [template, setTemplate] = useState(choices[0]?.body ?? '');
  const [item, setItem] = useState('');
  const [preview, setPreview] = useState<TemplatePreviewDto | null>(null);
  const [templateMessage, setTemplateMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [startMessage, setStartMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();

  return (
    <div className="space-y-8">
      <section aria-labelledby="runs-heading" className="space-y-3">
        <h2 id="runs-heading" className="text-lg font-semibold">
          Runs
        </h2>
        {runs.data.length === 0 ? (
          <p className="text-sm text-slate-600">No judge runs yet: start one below, or import a judge&apos;s output on the study page.</p>
        ) : (
          <>
            <ul className="space-y-3">
              {runs.data.map((r) => (
                <RunRow
                  key={r.name}
                  studyId={studyId}
                  run={r}
                  selected={selected.includes(r.name)}
                  onSelect={(on) => setSelected((s) => (on ? [...s, r.name] : s.filter((n) => n !== r.name)))}
                />
              ))}
            </ul>
            <Link
              href={`/studies/${studyId}/judges?${selected.map((n) => `compare=${encodeURIComponent(n)}`).join('&')}`}
              className={selected.length ? primary : `${primary} pointer-events-none opacity-50`}
              aria-disabled={!selected.length}
            >
              Compare the selected runs
            </Link>
          </>
        )}
      </section>

      <section aria-labelledby="template-heading" className="space-y-3">
        <h2 id="template-heading" className="text-lg font-semibold">
          Prompt template
        </h2>
        <label className="block text-sm">
          Start from
          <select className={field} onChange={(e) => setTemplate(choices[Number(e.target.value)].body)} defaultValue={0}>
            {choices.map((c, i) => (
              <option key={i} value={i}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          Template (JSON: name, criteria, together, system, user, answer)
          <textarea
            className={`${field} font-mono`}
            rows={14}
            value={template}
            onChange={(e) => setTemplate(e.target.value)}
            spellCheck={false}
          />
        </label>
        <p className="text-xs text-slate-500">
          Placeholders:{' '}
          {
            '{{problem}} {{instructions}} {{history}} {{response_1}} {{response_2}} {{criterion.name}} {{criterion.description}} {{criterion.aspects}} {{labels}}'
          }
          . Answers read as first, second or tie (the reply shown first or second). Saving an edited template makes a new version.
        </p>
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm">
            Item id for the preview
            <input className={field} value={item} onChange={(e) => setItem(e.target.value)} placeholder="first item" />
          </label>
          <button
            type="button"
            className={btn}
            disabled={pending}
            onClick={() =>
              start(async () => {
                const res = await previewTemplateAction(studyId, template, item);
                if (res.ok) {
                  setPreview(res.data);
                  setTemplateMessage(null);
                } else setTemplateMessage({ tone: 'error', text: res.error });
              })
            }
          >
            Preview
          </button>
          <button
            type="button"
            className={btn}
            disabled={pending}
            onClick={() =>
              start(async () => {
                const res = await saveTemplateAction(studyId, template);
                setTemplateMessage(
                  res.ok ? { tone: 'ok', text: `Saved as ${res.data.name} v${res.data.version}.` } : { tone: 'error', text: res.error },
                );
              })
            }
          >
            Save version
          </button>
        </div>
        <Message m={templateMessage} />
        {preview && <Preview preview={preview} />}
      </section>

      <section aria-labelledby="start-heading" className="space-y-3">
        <h2 id="start-heading" className="text-lg font-semibold">
          Start a run
        </h2>
        {!endpoints.length && (
          <p className="text-sm text-amber-800" role="note">
            No judge endpoint is configured yet: an admin adds them on the Judge endpoints page.
          </p>
        )}
        <form
          className="grid gap-3 sm:grid-cols-2"
          aria-label="Start a judge run"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const text = (k: string) => {
              const v = String(f.get(k) ?? '').trim();
              return v === '' ? undefined : v;
            };
            const input = {
              name: text('name'),
              endpoint: text('endpoint'),
              model: text('model'),
              samples: text('samples'),
              temperature: text('temperature'),
              maxTokens: text('maxTokens'),
              seed: text('seed'),
              concurrency: text('concurrency'),
              limit: text('limit'),
              bothOrders: f.get('bothOrders') === 'on',
              template,
            };
            start(async () => {
              const res = await startRunAction(studyId, input);
              if (res.ok) {
                setFieldErrors({});
                setStartMessage({
                  tone: 'ok',
                  text: `${res.data.resumed ? 'Resumed' : 'Started'} "${res.data.name}". It goes on if you close this page.`,
                });
                await qc.invalidateQueries({ queryKey: judgeRunsKey(studyId) });
              } else {
                setFieldErrors(res.fieldErrors ?? {});
                setStartMessage({ tone: 'error', text: res.error });
              }
            });
          }}
        >
          {/* Labelled by id, not by wrapping: a wrapping label's name would include the chosen option. */}
          <div className="text-sm">
            <label htmlFor={`run-endpoint-${studyId}`}>Endpoint</label>
            <select
              id={`run-endpoint-${studyId}`}
              name="endpoint"
              className={field}
              value={endpointName}
              onChange={(e) => setEndpointName(e.target.value)}
              aria-invalid={fieldErrors.endpoint ? true : undefined}
            >
              {endpoints.map((e) => (
                <option key={e.name}>{e.name}</option>
              ))}
            </select>
            {fieldErrors.endpoint && <span className="text-xs text-red-700">{fieldErrors.endpoint}</span>}
          </div>
          <div className="text-sm">
            <label htmlFor={`run-model-${studyId}`}>Model</label>
            <select
              key={endpointName}
              id={`run-model-${studyId}`}
              name="model"
              className={field}
              aria-invalid={fieldErrors.model ? true : undefined}
            >
              {endpoint?.models.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
            {fieldErrors.model && <span className="text-xs text-red-700">{fieldErrors.model}</span>}
          </div>
          {(
            [
              ['name', 'Run name', 'e.g. qwen-prompt-2'],
              ['samples', 'Samples per request', '1'],
              ['temperature', 'Temperature', ''],
              ['maxTokens', 'Max tokens', ''],
              ['seed', 'Seed', ''],
              ['concurrency', 'Concurrent requests', '4'],
              ['limit', 'Only the first N items', ''],
            ] as const
          ).map(([name, label, placeholder]) => (
            <label key={name} className="block text-sm">
              {label}
              <input name={name} className={field} placeholder={placeholder} aria-invalid={fieldErrors[name] ? true : undefined} />
              {fieldErrors[name] && <span className="text-xs text-red-700">{fieldErrors[name]}</span>}
            </label>
          ))}
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="bothOrders" defaultChecked /> Send both orders (measures position consistency)
          </label>
          <div className="sm:col-span-2">
            <button type="submit" className={primary} disabled={pending || !endpoint}>
              {pending ? 'Starting…' : 'Start run'}
            </button>
          </div>
        </form>
        <Message m={startMessage} />
        <p className="text-xs text-slate-500">{judgeRulesOf(kind)?.samples}</p>
        <p className="text-xs text-slate-500">
          Endpoints, their models, keys and prices are configured by an admin (Judge endpoints); no key or URL is entered here.
          {endpoint && (endpoint.priceIn !== null || endpoint.priceOut !== null)
            ? ` ${endpoint.name} costs $${endpoint.priceIn ?? 0} per million input tokens and $${endpoint.priceOut ?? 0} per million output tokens.`
            : ''}{' '}
          The template in the editor above is used (saved as a new version if it changed).
        </p>
      </section>
    </div>
  );
}
