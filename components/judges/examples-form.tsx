'use client';

import { useEffect, useState, useTransition } from 'react';
import type { DisagreementsDto, ExamplesVersionDto } from '@/lib/server/judges/dto';

type Result<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string> };
export type ExamplesInput = { run: string; k?: number; seed?: number; items?: string[] };

const btn = 'rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50 disabled:opacity-50';
const field = 'mt-1 block w-24 rounded-md border border-slate-300 px-2 py-1 text-sm';

/**
 * "New version from disagreements" (issue 28, point 4): the items where a run's judge disagreed with the settled
 * ground truth, and the next version of its template with k of them as worked examples — drawn at random with a
 * seed, or ticked by the lead. Self-contained: it takes the run and the two server actions, and tells the page the
 * new version so it can be run.
 */
export function ExamplesForm({
  studyId,
  run,
  load,
  make,
  onMade,
}: {
  studyId: number;
  run: string;
  load: (studyId: number, run: string) => Promise<Result<DisagreementsDto>>;
  make: (studyId: number, input: ExamplesInput) => Promise<Result<ExamplesVersionDto>>;
  onMade?: (made: ExamplesVersionDto) => void;
}) {
  const [list, setList] = useState<Result<DisagreementsDto> | null>(null);
  const [how, setHow] = useState<'seed' | 'choose'>('seed');
  const [k, setK] = useState('3');
  const [seed, setSeed] = useState('1');
  const [ticked, setTicked] = useState<string[]>([]);
  const [made, setMade] = useState<Result<ExamplesVersionDto> | null>(null);
  const [pending, start] = useTransition();
  useEffect(() => {
    let live = true;
    void load(studyId, run).then((r) => live && setList(r));
    return () => {
      live = false;
    };
  }, [studyId, run, load]);

  if (!list) return <p className="text-sm text-slate-500">Loading the disagreements…</p>;
  if (!list.ok)
    return (
      <p role="alert" className="text-sm text-red-700">
        {list.error}
      </p>
    );
  const d = list.data;
  const id = (s: string) => `examples-${s}-${run.replace(/\W+/g, '-')}`;
  return (
    <form
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3"
      aria-label={`New version from the disagreements of ${run}`}
      onSubmit={(e) => {
        e.preventDefault();
        const input: ExamplesInput = how === 'seed' ? { run, k: Number(k), seed: Number(seed) } : { run, items: ticked };
        start(async () => {
          const r = await make(studyId, input);
          setMade(r);
          if (r.ok) onMade?.(r.data);
        });
      }}
    >
      <p className="text-sm">
        The judge of <strong>{run}</strong> ({d.template.name} v{d.template.version}) disagreed with the settled ground truth on{' '}
        <strong data-testid="disagreement-count">{d.items}</strong> item{d.items === 1 ? '' : 's'}. The new version shows some of them as
        worked examples, answered with the settled label; comparing runs leaves those items out.
      </p>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">How the examples are chosen</legend>
        <label className="flex items-center gap-1">
          <input type="radio" name={id('how')} checked={how === 'seed'} onChange={() => setHow('seed')} /> At random with a seed
        </label>
        <label className="flex items-center gap-1">
          <input type="radio" name={id('how')} checked={how === 'choose'} onChange={() => setHow('choose')} /> I choose the items
        </label>
      </fieldset>
      {how === 'seed' ? (
        <div className="flex flex-wrap gap-4 text-sm">
          <label htmlFor={id('k')}>
            Examples (k)
            <input id={id('k')} className={field} inputMode="numeric" value={k} onChange={(e) => setK(e.target.value)} />
          </label>
          <label htmlFor={id('seed')}>
            Seed
            <input id={id('seed')} className={field} inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value)} />
          </label>
        </div>
      ) : null}
      <ul className="max-h-64 space-y-1 overflow-y-auto text-sm" aria-label="Items the judge got wrong">
        {d.list.map((x) => (
          <li key={x.item}>
            <label className="flex items-start gap-2">
              {how === 'choose' && (
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={ticked.includes(x.item)}
                  onChange={(e) => setTicked((t) => (e.target.checked ? [...t, x.item] : t.filter((i) => i !== x.item)))}
                  aria-label={`Use ${x.item} as a worked example`}
                />
              )}
              <span>
                <span className="font-mono">{x.item}</span>
                <span className="text-slate-600">
                  {' — '}
                  {x.criteria.map((c) => `${c.name}: judge ${c.judge}, settled ${c.settled}`).join('; ')}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {d.items > d.list.length && <p className="text-xs text-slate-500">The first {d.list.length} are listed.</p>}
      <button type="submit" className={btn} disabled={pending || (how === 'choose' && ticked.length === 0)}>
        {pending ? 'Making…' : 'Make the new version'}
      </button>
      {made && !made.ok && (
        <p role="alert" className="text-sm text-red-700">
          {made.error}
        </p>
      )}
      {made?.ok && (
        <p role="status" className="text-sm text-emerald-700">
          Made {made.data.template.name} v{made.data.template.version} with {made.data.examples.length} worked example
          {made.data.examples.length === 1 ? '' : 's'} ({made.data.examples.map((e) => e.item).join(', ')}). It is now in the template
          editor below: start a run with it, then compare the two runs.
        </p>
      )}
    </form>
  );
}
