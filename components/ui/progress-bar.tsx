import { useId } from 'react';
import { cn } from './cn';
import { formatCount, formatPercent } from './format';

export type ProgressBarProps = {
  done: number;
  total: number;
  /** Visible caption; also names the progress bar for assistive technology. */
  label?: string;
  className?: string;
};

export function ProgressBar({ done, total, label, className }: ProgressBarProps) {
  const labelId = useId();
  const safeTotal = Math.max(0, total);
  const safeDone = Math.min(Math.max(0, done), safeTotal);
  const share = safeTotal === 0 ? 0 : safeDone / safeTotal;
  const count = `${formatCount(safeDone)} of ${formatCount(safeTotal)}`;
  return (
    <div className={cn('space-y-1', className)}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        {label != null ? (
          <span id={labelId} className="font-medium text-slate-800">
            {label}
          </span>
        ) : (
          <span />
        )}
        <span className="text-slate-600 tabular-nums">{count}</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={label != null ? labelId : undefined}
        aria-label={label == null ? 'Progress' : undefined}
        aria-valuemin={0}
        aria-valuemax={safeTotal}
        aria-valuenow={safeDone}
        aria-valuetext={safeTotal === 0 ? 'Nothing to do' : `${count} (${formatPercent(share, 0)})`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-accent-600 transition-[width] duration-300" style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}
