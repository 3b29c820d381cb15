import { cn } from '../ui/cn';
import { formatCount, formatPercent } from '../ui/format';
import { TONE_FILL, type ChartTone } from './colors';

export type StackedPart = { label: string; value: number; tone: ChartTone };

export type StackedBarProps = {
  parts: StackedPart[];
  /** Names the bar for assistive technology, e.g. "Flow decisions". */
  ariaLabel?: string;
  className?: string;
};

/** One 100 % bar split into parts (verified / truncated / discarded), with a legend of counts and shares. */
export function StackedBar({ parts, ariaLabel = 'Breakdown', className }: StackedBarProps) {
  const total = parts.reduce((sum, part) => sum + Math.max(0, part.value), 0);
  const share = (value: number) => (total === 0 ? 0 : Math.max(0, value) / total);
  const description =
    total === 0
      ? `${ariaLabel}: no data yet`
      : `${ariaLabel}: ${parts.map((part) => `${part.label} ${formatCount(part.value)} (${formatPercent(share(part.value))})`).join(', ')}`;

  return (
    <div className={cn('w-full', className)}>
      <div role="img" aria-label={description} className="flex h-4 w-full overflow-hidden rounded-full bg-slate-100">
        {parts.map((part) =>
          share(part.value) > 0 ? (
            <div
              key={part.label}
              title={`${part.label}: ${formatCount(part.value)} (${formatPercent(share(part.value))})`}
              className="h-full border-r border-white last:border-r-0"
              style={{ width: `${share(part.value) * 100}%`, backgroundColor: TONE_FILL[part.tone] }}
            />
          ) : null,
        )}
      </div>
      <div aria-hidden="true" className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {total === 0 ? <span className="text-slate-500">No data yet.</span> : null}
        {parts.map((part) => (
          <span key={part.label} className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm" style={{ backgroundColor: TONE_FILL[part.tone] }} />
            <span className="text-slate-700">{part.label}</span>
            <span className="text-slate-900 tabular-nums">{formatCount(part.value)}</span>
            <span className="text-slate-500 tabular-nums">({formatPercent(share(part.value))})</span>
          </span>
        ))}
      </div>
    </div>
  );
}
