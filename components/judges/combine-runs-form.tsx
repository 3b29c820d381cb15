'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { combineRulesOf } from '@/lib/kinds/judge-rules';
import type { CombineRule, CombinedRunDto } from '@/lib/server/judges/dto';
import type { StudyKind } from '@/lib/validation/labels';
import { recipeSentence } from './recipe';

export type CombineRunsInput = { runs: string[]; rule: CombineRule; name: string; missing: 'unjudged' | 'ignore' };
export type CombineRunsResult = { ok: true; data: CombinedRunDto } | { ok: false; error: string; fieldErrors?: Record<string, string> };

const RULES: { value: CombineRule; label: string; help: string }[] = [
  { value: 'majority', label: 'Majority', help: 'The label most runs gave; a tie is left unjudged and counted.' },
  { value: 'all', label: 'All', help: 'The desired label only where every run gave it, else the worst label given.' },
  { value: 'any', label: 'Any', help: 'The desired label where at least one run gave it, else the best label given.' },
];

/**
 * "Combine runs": a lead picks judge runs of the study, a rule and a name, and gets a new run analysed like any
 * other (DESIGN "Combined judges"). Self-contained: it takes the study, its runs and the server action that
 * combines, so any page that lists judge runs can place it.
 */
export function CombineRunsForm({
  studyId,
  runs,
  kind,
  action,
}: {
  studyId: number;
  runs: readonly string[];
  kind: StudyKind;
  action: (studyId: number, input: CombineRunsInput) => Promise<CombineRunsResult>;
}) {
  const router = useRouter();
  const [chosen, setChosen] = useState<string[]>([]);
  const [rule, setRule] = useState<CombineRule>('majority');
  const [missing, setMissing] = useState<'unjudged' | 'ignore'>('unjudged');
  const [name, setName] = useState('');
  const [result, setResult] = useState<CombineRunsResult | null>(null);
  const [pending, start] = useTransition();
  // What the kind's labels allow (pairwise: no desired label, so majority only), as the use-case checks it.
  const allowed = combineRulesOf(kind);
  const rules = RULES.filter((r) => allowed?.rules.includes(r.value));
  const suggested = chosen.length ? `${rule} of ${chosen.join(', ')}`.slice(0, 100) : '';

  if (!allowed || runs.length < allowed.minimumRuns) return null;
  const toggle = (run: string) => setChosen((c) => (c.includes(run) ? c.filter((r) => r !== run) : [...c, run]));
  const submit = () =>
    start(async () => {
      const res = await action(studyId, { runs: chosen, rule, missing, name: name.trim() || suggested });
      setResult(res);
      if (res.ok) {
        setChosen([]);
        setName('');
        router.refresh();
      }
    });
  const error = result && !result.ok ? result : null;

  return (
    <form
      className="mt-4 space-y-3 rounded-md border border-slate-200 p-3"
      aria-labelledby="combine-runs-title"
      data-testid="combine-runs-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id="combine-runs-title" className="text-sm font-semibold text-slate-900">
        Combine runs
      </h3>
      <p className="text-xs text-slate-600">
        A new run from the verdicts of several runs
        {allowed.verdicts}; it appears on every dashboard like an imported run.
      </p>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Runs, in this order</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {runs.map((run) => (
            <label key={run} className="inline-flex items-center gap-1.5 text-sm">
              <input type="checkbox" checked={chosen.includes(run)} onChange={() => toggle(run)} disabled={pending} />
              <span className="font-mono">{run}</span>
            </label>
          ))}
        </div>
        {error?.fieldErrors?.runs ? <p className="mt-1 text-sm text-rose-700">{error.fieldErrors.runs}</p> : null}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <Select
          label="Rule"
          value={rule}
          onChange={(e) => setRule(e.target.value as CombineRule)}
          disabled={pending}
          hint={allowed.ruleHint ?? RULES.find((r) => r.value === rule)?.help}
          error={error?.fieldErrors?.rule}
        >
          {rules.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
        <Select
          label="Where a run gave no verdict"
          value={missing}
          onChange={(e) => setMissing(e.target.value as 'unjudged' | 'ignore')}
          disabled={pending}
        >
          <option value="unjudged">Leave the item unjudged</option>
          <option value="ignore">Combine the verdicts there are</option>
        </Select>
        <Input
          label="Name of the new run"
          value={name}
          placeholder={suggested || 'e.g. majority of gpt, claude'}
          onChange={(e) => setName(e.target.value)}
          disabled={pending}
          maxLength={100}
          error={error?.fieldErrors?.name}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending || chosen.length < allowed.minimumRuns}>
          {pending ? 'Combining…' : 'Combine runs'}
        </Button>
        {chosen.length < allowed.minimumRuns ? (
          <span className="text-xs text-slate-500">Choose at least {allowed.minimumRuns === 2 ? 'two runs' : 'one run'}.</span>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error.error}
        </p>
      ) : null}
      {result?.ok ? (
        <p role="status" className="text-sm text-emerald-800" data-testid="combine-result">
          Run “{result.data.run}” created. {recipeSentence(result.data.recipe)}
        </p>
      ) : null}
    </form>
  );
}
