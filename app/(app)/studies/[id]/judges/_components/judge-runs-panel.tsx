'use client';

import Link from 'next/link';
import { useState, useTransition } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ProgressBar } from '@/components/ui/progress-bar';
import { judgeRunsKey, judgeRunsOptions, unreadableOptions } from '@/lib/query/judges';
import type { JudgeEndpointChoiceDto, JudgeRunStatusDto, StudyJudgeRunDto, TemplatePreviewDto } from '@/lib/server/judges/dto';
import { cancelRunAction, pauseRunAction, previewTemplateAction, resumeRunAction, saveTemplateAction, startRunAction } from '../actions';

type Template = { name: string; version?: number; body: string };
type Props = {
  studyId: number;
  kind: 'pairwise' | 'rubric';
  initialRuns: StudyJudgeRunDto[];
  templates: Template[];
  shipped: Template[];
  /** The admin-configured endpoints a run may use, by name. */
  endpoints: JudgeEndpointChoiceDto[];
};

const btn = 'rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50 disabled:opacity-50';
const primary = 'rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50';
const field = 'mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm';

function duration(s: number | null) {
  if (s === null) return '—';
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

function Message({ m }: { m: { tone: 'ok' | 'error'; text: string } | null }) {
  if (!m) return null;
  return (
    <p role={m.tone === 'error' ? 'alert' : 'status'} className={m.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
      {m.text}
    </p>
  );
}

function Unreadable({ studyId, runId }: { studyId: number; runId: number }) {
  const q = useQuery(unreadableOptions(studyId, runId));
  if (q.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (q.isError) return <p className="text-sm text-red-700">{q.error.message}</p>;
  if (!q.data.length) return <p className="text-sm text-slate-500">No unreadable answers.</p>;
  return (
    <ul className="space-y-2" aria-label="Unreadable answers">
      {q.data.map((a, i) => (
        <li key={i} className="rounded border border-slate-200 p-2 text-sm">
          <p className="text-xs text-slate-500">
            {a.item} · {a.criterion} · sample {a.sample} · {a.swapped ? 'order b, a' : 'order a, b'}
          </p>
          <pre className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{a.raw}</pre>
        </li>
      ))}
    </ul>
  );
}

function RunRow({
  studyId,
  run,
  selected,
  onSelect,
}: {
  studyId: number;
  run: StudyJudgeRunDto;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [showUnreadable, setShowUnreadable] = useState(false);
  const s: JudgeRunStatusDto | null = run.status;
  const act = (fn: (id: number) => Promise<{ ok: true; data: unknown } | { ok: false; error: string }>) =>
    start(async () => {
      const res = await fn(s!.runId);
      setMessage(res.ok ? null : { tone: 'error', text: res.error });
      await qc.invalidateQueries({ queryKey: judgeRunsKey(studyId) });
    });
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4" aria-label={`Judge run ${run.name}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={`Compare ${run.name}`} />
          {run.name}
        </label>
        <span className="text-xs text-slate-500">
          {run.origin === 'imported'
            ? `imported · ${run.labels.toLocaleString('en-US')} verdicts`
            : `${s!.model} · ${s!.template.name} v${s!.template.version}`}
        </span>
      </div>
      {s && (
        <div className="mt-2 space-y-2">
          <p className="text-sm">
            State: <strong data-testid="run-state">{s.state.replace('_', ' ')}</strong>
            {s.reason ? <span className="text-slate-600"> — {s.reason}</span> : null}
            {s.stalled ? <span className="text-amber-700"> — its runner has stopped answering; resume it to start a new one</span> : null}
          </p>
          <ProgressBar done={s.answered} total={s.requests} label="Requests answered" />
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-4">
            <div>
              <dt className="inline">Rate: </dt>
              <dd className="inline tabular-nums">{s.rate} / s</dd>
            </div>
            <div>
              <dt className="inline">ETA: </dt>
              <dd className="inline">{s.state === 'running' ? duration(s.etaSeconds) : '—'}</dd>
            </div>
            <div>
              <dt className="inline">Tokens: </dt>
              <dd className="inline tabular-nums">
                {s.tokensIn.toLocaleString('en-US')} in · {s.tokensOut.toLocaleString('en-US')} out
              </dd>
            </div>
            <div>
              <dt className="inline">Estimated cost: </dt>
              <dd className="inline tabular-nums">{s.cost === null ? 'no prices given' : `$${s.cost.toFixed(4)}`}</dd>
            </div>
            <div>
              <dt className="inline">From the cache: </dt>
              <dd className="inline tabular-nums">{s.cached}</dd>
            </div>
            <div>
              <dt className="inline">Unreadable: </dt>
              <dd className="inline tabular-nums">{s.unreadable}</dd>
            </div>
            <div>
              <dt className="inline">Failed: </dt>
              <dd className="inline tabular-nums">{s.failed}</dd>
            </div>
            <div>
              <dt className="inline">Mean latency: </dt>
              <dd className="inline tabular-nums">{s.meanLatencyMs === null ? '—' : `${s.meanLatencyMs} ms`}</dd>
            </div>
          </dl>
          <div className="flex flex-wrap gap-2">
            {s.state === 'running' && (
              <button type="button" className={btn} disabled={pending} onClick={() => act(pauseRunAction)}>
                Pause
              </button>
            )}
            {(s.state === 'paused' || s.state === 'circuit_open' || s.stalled) && (
              <button type="button" className={btn} disabled={pending} onClick={() => act(resumeRunAction)}>
                Resume
              </button>
            )}
            {s.state !== 'done' && s.state !== 'cancelled' && (
              <button
                type="button"
                className={btn}
                disabled={pending}
                onClick={() => {
                  if (window.confirm(`Cancel the judge run "${run.name}"? Its answers so far stay; it cannot be resumed.`))
                    act(cancelRunAction);
                }}
              >
                Cancel
              </button>
            )}
            <button type="button" className={btn} onClick={() => setShowUnreadable((v) => !v)} aria-expanded={showUnreadable}>
              {showUnreadable ? 'Hide' : 'Show'} unreadable answers
            </button>
            <Link href={`/studies/${studyId}/analytics/alignment?judge=${encodeURIComponent(run.name)}`} className={btn}>
              Alignment dashboard
            </Link>
          </div>
          <Message m={message} />
          {showUnreadable && <Unreadable studyId={studyId} runId={s.runId} />}
        </div>
      )}
      {!s && (
        <p className="mt-2 text-sm">
          <Link
            href={`/studies/${studyId}/analytics/alignment?judge=${encodeURIComponent(run.name)}`}
            className="text-accent-700 hover:underline"
          >
            Alignment dashboard
          </Link>
        </p>
      )}
    </li>
  );
}

function Preview({ preview }: { preview: TemplatePreviewDto }) {
  return (
    <div className="space-y-2" aria-label="Rendered prompt">
      <p className="text-xs text-slate-500">
        Item {preview.item}, criterion {preview.criterion}, replies in the order a, b · {preview.requestsPerItem} request(s) per item and
        sample in one order · prompt hash {preview.promptHash.slice(0, 12)}
      </p>
      {preview.messages.map((m, i) => (
        <div key={i}>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{m.role}</p>
          <pre className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs" data-testid={`preview-${m.role}`}>
            {m.content}
          </pre>
        </div>
      ))}
    </div>
  );
}

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
        {kind === 'pairwise' ? (
          <p className="text-xs text-slate-500">
            Samples: in a pairwise study only the verdicts of sample 1 become the run&apos;s verdicts, which the dashboards read; the
            answers of further samples are kept with the run (raw text and verdicts) but no dashboard reads them.
          </p>
        ) : (
          <p className="text-xs text-slate-500">
            Samples: a rubric run keeps the verdicts of every sample; the dashboards read one sample at a time.
          </p>
        )}
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
