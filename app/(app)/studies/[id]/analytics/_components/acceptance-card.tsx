'use client';

import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import type { Flat } from '@/lib/query/analytics';
import { type AcceptanceDto, type AcceptanceStratumRow, STRATUM_COLUMNS } from '@/lib/server/analytics/dto';
import { count, formatValue, reasonText } from './format';
import { StatTable, specColumns } from './stat-table';

/*
 * Error-bounded acceptance beside Padó's plan, for every kind of study: which of the judge's labels can be kept with
 * each kept class's error certified below ε at confidence 1 − δ, what that saves, and what Padó's plan accepts on the
 * same data with the error it shows there — so a lead sees what the guarantee costs. Reads the report JSON's
 * `acceptance`; the strata table is drawn from the same column specs as the CSV and the CLI.
 */

type Acceptance = Flat<AcceptanceDto>;

export const EPSILONS = [0.01, 0.02, 0.05, 0.1, 0.2] as const;
export const DELTAS = [0.01, 0.05, 0.1] as const;

const rate = (v: number | null, reason?: string) => (v === null ? `n/a (${reasonText(reason)})` : formatValue(v, 'rate'));
const percent = (v: number) => `${+(v * 100).toFixed(2)} %`;
const STRATA = specColumns(STRATUM_COLUMNS);

export function AcceptanceCard({
  acceptance: a,
  epsilon,
  delta,
  onLevels,
  noun,
  csv,
  queue,
}: {
  acceptance: Acceptance;
  /** The levels asked for (the card shows `a`'s own until the report is recomputed). */
  epsilon: number;
  delta: number;
  onLevels: (epsilon: number, delta: number) => void;
  /** What the judge labels: items, replies. */
  noun: string;
  csv: (table: 'acceptance' | 'strata') => ReactNode;
  /** The form that opens the review queue for the labels not accepted. */
  queue: ReactNode;
}) {
  const accepted = a.acceptedLabels;
  const pado = a.pado;
  return (
    <Card
      title="Accept the judge’s labels with a guarantee"
      description={`Keep a predicted class only where its error rate is below ε with confidence 1 − δ (exact binomial test per class, Holm across the classes); people label the rest.`}
      actions={
        <span className="flex gap-2">
          {csv('acceptance')}
          {csv('strata')}
        </span>
      }
    >
      <div className="space-y-4" data-testid="acceptance-card">
        <div className="flex flex-wrap items-end gap-4">
          <Select
            label="Error below ε"
            value={String(epsilon)}
            onChange={(e) => onLevels(Number(e.target.value), delta)}
            wrapperClassName="w-36"
            data-testid="epsilon-select"
          >
            {EPSILONS.map((x) => (
              <option key={x} value={x}>
                {percent(x)}
              </option>
            ))}
          </Select>
          <Select
            label="Risk δ"
            value={String(delta)}
            onChange={(e) => onLevels(epsilon, Number(e.target.value))}
            wrapperClassName="w-36"
            data-testid="delta-select"
          >
            {DELTAS.map((x) => (
              <option key={x} value={x}>
                {percent(x)}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Stat
            label="Accepted with the guarantee"
            value={<span data-testid="accepted-share">{rate(a.acceptedShare, a.acceptedShareReason)}</span>}
            sublabel={
              accepted.length
                ? `${count(a.acceptedItems)} of ${count(a.pool)} ${noun}: “${accepted.join('”, “')}”`
                : `nothing of ${count(a.pool)} ${noun}`
            }
          />
          <Stat
            label="Guaranteed error"
            value={<span data-testid="error-bound">{a.errorBound === null ? 'none' : `< ${percent(a.errorBound)}`}</span>}
            sublabel={
              a.errorBound === null
                ? reasonText(a.errorBoundReason)
                : `each accepted class, with ${percent(1 - a.delta)} confidence (bound ${rate(a.errorUpperAccepted, a.errorUpperAcceptedReason)})`
            }
          />
          <Stat
            label="People’s work saved"
            value={rate(a.effortSaved, a.effortSavedReason)}
            sublabel={`${count(a.judgeLabelledItems)} ${noun} without ground truth keep the judge’s label; ${count(a.humanLabels)} human labels`}
          />
          <Stat
            label="Padó’s plan, same data"
            value={<span data-testid="pado-share">{rate(pado.acceptedShare, pado.acceptedShareReason)}</span>}
            sublabel={
              pado.acceptedClass === null
                ? 'no class accepted'
                : `accepts “${pado.acceptedClass}”, observed error ${rate(pado.observedError, pado.observedErrorReason)}`
            }
          />
        </div>
        <p className="text-sm text-slate-700" data-testid="acceptance-verdict">
          {pado.acceptedClass === null
            ? 'Padó’s plan has nothing to accept here.'
            : pado.guaranteed
              ? `Padó’s “${pado.acceptedClass}” is accepted with the guarantee too.`
              : `Padó’s plan keeps “${pado.acceptedClass}” (${rate(pado.acceptedShare, pado.acceptedShareReason)} of the judge’s labels) on an observed error of ${rate(pado.observedError, pado.observedErrorReason)}; the calibration sample vouches only for an error below ${rate(pado.errorUpper, pado.errorUpperReason)} at ${percent(1 - a.delta)} confidence, so the guarantee at ε = ${percent(a.epsilon)} does not accept it.`}{' '}
          {count(a.calibration)} of the {count(a.pool)} judged {noun} have ground truth (the calibration sample).
        </p>
        <StatTable
          caption="Strata of the guarantee: one per label the judge predicts"
          testId="acceptance-strata"
          columns={STRATA}
          rows={a.strata as unknown as AcceptanceStratumRow[]}
          rowKey={(s) => s.label}
          wrapperClassName="rounded-md"
        />
        {/* Closed until asked for, so the page shows one set of reviewer boxes: Padó's queue form's. */}
        <details className="rounded-md border border-slate-200 px-3 py-2" data-testid="guaranteed-queue">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Open a review queue for the labels not accepted</summary>
          {queue}
        </details>
      </div>
    </Card>
  );
}
