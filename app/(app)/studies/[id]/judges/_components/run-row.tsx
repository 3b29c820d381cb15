'use client';

import { Link } from '@/components/ui/link';
import { useState, useTransition } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ProgressBar } from '@/components/ui/progress-bar';
import { judgeRunsKey, unreadableOptions } from '@/lib/query/judges';
import type { JudgeRunStatusDto, StudyJudgeRunDto } from '@/lib/server/judges/dto';
import { ExamplesForm } from '@/components/judges/examples-form';
import type { ExamplesVersionDto } from '@/lib/server/judges/dto';
import { cancelRunAction, disagreementsAction, examplesAction, pauseRunAction, resumeRunAction } from '../actions';
import { btn, duration, Message } from './panel-parts';

/* One launched run in the panel's list: its progress, cost and controls, and its unreadable answers on demand. */

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

export function RunRow({
  studyId,
  run,
  selected,
  onSelect,
  examples,
  onExamplesMade,
}: {
  studyId: number;
  run: StudyJudgeRunDto;
  selected: boolean;
  onSelect: (on: boolean) => void;
  /** Whether the study's runs can carry worked examples (a new version from disagreements). */
  examples: boolean;
  onExamplesMade: (made: ExamplesVersionDto) => void;
}) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [showUnreadable, setShowUnreadable] = useState(false);
  const [showExamples, setShowExamples] = useState(false);
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
            {examples && (
              <button type="button" className={btn} onClick={() => setShowExamples((v) => !v)} aria-expanded={showExamples}>
                New version from disagreements
              </button>
            )}
          </div>
          <Message m={message} />
          {showUnreadable && <Unreadable studyId={studyId} runId={s.runId} />}
          {showExamples && (
            <ExamplesForm studyId={studyId} run={run.name} load={disagreementsAction} make={examplesAction} onMade={onExamplesMade} />
          )}
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
