'use client';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { count } from './format';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES } from './use-report';

export type IntervalsPanelProps = {
  /** Replicates asked for (0 = point estimates only). */
  requested: number;
  /** Replicates behind the report on screen, and its seed. */
  computed: { replicates: number; seed: number };
  /** Labels the bootstrap works through, to say why it is or is not automatic. */
  labels: number;
  /** What the bootstrap gives intervals for on this page. */
  what: string;
  error: string | null;
  onCompute: () => void;
  onRetry: () => void;
};

/**
 * Says where the 95 % intervals come from, and lets the lead start the expensive part. Wilson intervals of
 * proportions are always there; κ, α and means of rates need the item bootstrap.
 */
export function IntervalsPanel({ requested, computed, labels, what, error, onCompute, onRetry }: IntervalsPanelProps) {
  const small = labels <= AUTO_BOOTSTRAP_MAX_LABELS;
  const computing = requested > 0 && computed.replicates !== requested;
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700" data-testid="intervals-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-3xl">
          <span className="font-medium text-slate-900">95 % intervals.</span> Proportions get Wilson score intervals at once. The intervals
          of {what} come from an item bootstrap ({count(INTERVAL_REPLICATES)} resamples of the items, each carrying all its labels), whose
          cost grows with the number of labels: point estimates are shown first.{' '}
          {small
            ? `This study is small (${count(labels)} labels), so the bootstrap starts by itself.`
            : `This study has ${count(labels)} labels, so the bootstrap runs only when you ask for it.`}
        </p>
        {computed.replicates > 0 ? (
          <p className="text-xs text-slate-500" data-testid="intervals-status">
            Bootstrap: {count(computed.replicates)} replicates, seed {computed.seed} (the same study always gives the same intervals).
          </p>
        ) : computing ? (
          <p role="status" className="text-slate-600" data-testid="intervals-status">
            Computing 95 % intervals…
          </p>
        ) : (
          <Button variant="secondary" onClick={onCompute} data-testid="compute-intervals">
            Compute 95 % intervals
          </Button>
        )}
      </div>
      {error ? (
        <Alert tone="error" className="mt-3">
          {error}{' '}
          <button type="button" className="font-medium underline" onClick={onRetry}>
            Try again
          </button>
        </Alert>
      ) : null}
    </div>
  );
}
