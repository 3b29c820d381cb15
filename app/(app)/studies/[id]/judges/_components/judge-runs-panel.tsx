'use client';

import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useHydrated } from '@/components/ui/use-hydrated';
import { judgeRulesOf, unfilledMessage, unfilledPlaceholders } from '@/lib/kinds/judge-rules';
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
  /** The comparison of the runs chosen, shown right under "Compare the selected runs" and scrolled into view. */
  comparison?: ReactNode;
  /** Changes with the runs compared, so a new comparison is scrolled into view again. */
  comparisonKey?: string;
  /** Whether a launched run offers "New version from disagreements" (the study's comparison can leave items out). */
  examples: boolean;
};

/** The placeholders of a template's text (JSON) that the study's items leave empty; none while it is not JSON yet. */
function unfilledOf(kind: StudyKind, body: string): string[] {
  try {
    return unfilledPlaceholders(kind, JSON.parse(body));
  } catch {
    return [];
  }
}

/** What each field of the form wants, in words, for when the server's message is a parser's generic one. */
const FIELD_WORDS: Record<string, string> = {
  name: 'Give the run a name, e.g. qwen-prompt-2.',
  endpoint: 'Choose an endpoint.',
  model: 'Choose a model.',
  samples: 'A whole number, 1 or more.',
  temperature: 'A number from 0 to 2, or leave it empty.',
  maxTokens: 'A whole number of tokens, or leave it empty.',
  seed: 'A whole number, or leave it empty.',
  concurrency: 'A whole number of requests at once, 1 or more.',
  limit: 'A whole number of items, or leave it empty.',
};
const LABELS: Record<string, string> = {
  name: 'Run name',
  endpoint: 'Endpoint',
  model: 'Model',
  samples: 'Samples per request',
  temperature: 'Temperature',
  maxTokens: 'Max tokens',
  seed: 'Seed',
  concurrency: 'Concurrent requests',
  limit: 'Only the first N items',
  template: 'Template',
};
/** A zod default ("Invalid input: expected string, received undefined") says nothing to a lead: use the field's words. */
const inWords = (field: string, message: string) =>
  /^(invalid|too (small|big)|expected|unrecognized)/i.test(message) ? (FIELD_WORDS[field] ?? message) : message;

export function JudgeRunsPanel({ studyId, kind, initialRuns, templates, shipped, endpoints, comparison, comparisonKey, examples }: Props) {
  const router = useRouter();
  const [endpointName, setEndpointName] = useState(endpoints[0]?.name ?? '');
  const endpoint = endpoints.find((e) => e.name === endpointName);
  const runs = useQuery({ ...judgeRunsOptions(studyId), initialData: initialRuns });
  const qc = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const rules = judgeRulesOf(kind);
  // Templates that fill their placeholders from this kind's items come first (the kind's shipped one leading the
  // shipped), so the form opens on one that works; the others stay choosable, marked, and are refused on use.
  const all = [
    ...templates.map((t) => ({ ...t, label: `${t.name} v${t.version} (this study)` })),
    ...[...shipped]
      .sort((a, b) => Number(b.name === rules?.defaultTemplate) - Number(a.name === rules?.defaultTemplate))
      .map((t) => ({ ...t, label: `${t.name} (shipped)` })),
  ].map((t) => ({ ...t, fits: unfilledOf(kind, t.body).length === 0 }));
  const choices = [...all.filter((t) => t.fits), ...all.filter((t) => !t.fits).map((t) => ({ ...t, label: `${t.label}, not for ${kind} studies` }))];
  const [template, setTemplate] = useState(choices[0]?.body ?? '');
  const hydrated = useHydrated();
  const [item, setItem] = useState('');
  const [preview, setPreview] = useState<TemplatePreviewDto | null>(null);
  const [templateMessage, setTemplateMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [startMessage, setStartMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();
  const unfilled = unfilledOf(kind, template);
  const misfit = unfilled.length ? unfilledMessage(kind, unfilled) : null;
  const comparisonRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (comparisonKey) comparisonRef.current?.scrollIntoView({ block: 'start' });
  }, [comparisonKey]);

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
                  examples={examples}
                  onExamplesMade={(made) => {
                    // The new version goes into the editor, ready to run; the page lists it among the study's templates.
                    setTemplate(JSON.stringify(JSON.parse(made.template.body), null, 2));
                    setTemplateMessage({ tone: 'ok', text: `${made.template.name} v${made.template.version} is in the editor.` });
                    router.refresh();
                  }}
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

      {comparison ? (
        <div ref={comparisonRef} className="scroll-mt-4" data-testid="run-comparison">
          {comparison}
        </div>
      ) : null}

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
            readOnly={!hydrated}
            spellCheck={false}
            aria-invalid={misfit ? true : undefined}
            aria-describedby={misfit ? `template-misfit-${studyId}` : undefined}
          />
        </label>
        {misfit && (
          <p id={`template-misfit-${studyId}`} role="alert" className="text-sm text-red-700" data-testid="template-misfit">
            {misfit}
          </p>
        )}
        <p className="text-xs text-slate-500">
          Placeholders this study&apos;s items fill:{' '}
          {[...(rules?.itemPlaceholders ?? []), 'criterion.name', 'criterion.description', 'criterion.aspects', 'labels'].map((p) => `{{${p}}}`).join(' ')}
          .{rules?.bothOrders ? ' Answers read as first, second or tie (the reply shown first or second).' : ''} Saving an edited template makes a
          new version.
        </p>
        <div className="flex flex-wrap items-end gap-2">
          <button
            type="button"
            className={btn}
            disabled={pending}
            onClick={() => {
              if (misfit) return setTemplateMessage({ tone: 'error', text: misfit });
              start(async () => {
                const res = await previewTemplateAction(studyId, template, item);
                if (res.ok) {
                  setPreview(res.data);
                  setTemplateMessage(null);
                } else setTemplateMessage({ tone: 'error', text: res.error });
              });
            }}
          >
            {item.trim() ? 'Preview on this item' : 'Preview on a random item'}
          </button>
          <label className="text-sm">
            Item id for the preview (optional)
            <input className={field} value={item} onChange={(e) => setItem(e.target.value)} placeholder="a random item" />
          </label>
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
            // What is missing is said next to its field before anything is sent, and a template that cannot fill
            // its placeholders for this kind is refused here as on the server.
            const missing: Record<string, string> = {};
            for (const k of ['name', 'endpoint', 'model'] as const) if (!text(k)) missing[k] = FIELD_WORDS[k];
            if (misfit) missing.template = misfit;
            if (Object.keys(missing).length) {
              setFieldErrors(missing);
              setStartMessage({ tone: 'error', text: `The run was not started. Missing or wrong: ${Object.keys(missing).map((k) => LABELS[k]).join(', ')}.` });
              return;
            }
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
              bothOrders: rules?.bothOrders === true && f.get('bothOrders') === 'on',
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
                const errors = Object.fromEntries(Object.entries(res.fieldErrors ?? {}).map(([k, m]) => [k, inWords(k, m)]));
                const named = Object.keys(errors).filter((k) => LABELS[k]);
                setFieldErrors(errors);
                setStartMessage({
                  tone: 'error',
                  text: named.length ? `The run was not started. Check: ${named.map((k) => LABELS[k]).join(', ')}.` : res.error,
                });
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
              <input
                name={name}
                className={field}
                placeholder={placeholder}
                aria-invalid={fieldErrors[name] ? true : undefined}
                aria-describedby={fieldErrors[name] ? `run-${name}-error-${studyId}` : undefined}
              />
              {fieldErrors[name] && (
                <span id={`run-${name}-error-${studyId}`} className="text-xs text-red-700" data-testid={`field-error-${name}`}>
                  {fieldErrors[name]}
                </span>
              )}
            </label>
          ))}
          {/* Only where two replies can swap places: a rubric item has one reply, so there is no order to send. */}
          {rules?.bothOrders && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="bothOrders" defaultChecked /> Send both orders (measures position consistency)
            </label>
          )}
          {fieldErrors.template && (
            <p className="text-sm text-red-700 sm:col-span-2" data-testid="field-error-template">
              Template: {fieldErrors.template}
            </p>
          )}
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
