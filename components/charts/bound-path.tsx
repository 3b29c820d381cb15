'use client';

import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { cn } from '../ui/cn';
import { SERIES_COLORS } from './colors';

export type BoundPoint = { t: number; lower: number | null; upper: number | null };

export type BoundPathChartProps = {
  /** The bounds after each observation (null once they crossed). */
  data: BoundPoint[];
  /** A horizontal line the bounds are compared with (e.g. the certification target). */
  target?: number;
  ariaLabel: string;
  height?: number;
  className?: string;
};

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** Lower and upper confidence bounds as they narrow with every observation, with the target as a reference line. */
export function BoundPathChart({ data, target, ariaLabel, height = 240, className }: BoundPathChartProps) {
  if (data.length === 0) {
    return (
      <figure aria-label={ariaLabel} className={cn('text-sm text-slate-500', className)}>
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center">No observations yet.</p>
      </figure>
    );
  }
  const last = data[data.length - 1];
  const summary =
    last.lower === null
      ? `After ${last.t} items the bounds have crossed.`
      : `After ${last.t} items: lower bound ${pct(last.lower)}, upper bound ${pct(last.upper!)}${target === undefined ? '' : `, target ${pct(target)}`}.`;
  return (
    <figure aria-label={ariaLabel} className={cn('w-full', className)}>
      <div aria-hidden="true">
        <LineChart
          responsive
          accessibilityLayer={false}
          data={data}
          style={{ width: '100%', height }}
          margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
        >
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="t" type="number" domain={[1, 'dataMax']} tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} />
          <YAxis
            domain={[0, 1]}
            tickFormatter={pct}
            tick={{ fontSize: 12, fill: '#475569' }}
            tickLine={false}
            axisLine={false}
            width={48}
          />
          <Tooltip formatter={(v) => (typeof v === 'number' ? pct(v) : String(v ?? ''))} labelFormatter={(t) => `after ${t} items`} />
          {target === undefined ? null : <ReferenceLine y={target} stroke="#b45309" strokeDasharray="4 3" />}
          <Line dataKey="lower" name="lower bound" stroke={SERIES_COLORS[0]} strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line dataKey="upper" name="upper bound" stroke={SERIES_COLORS[1]} strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </div>
      <figcaption className="mt-1 text-xs text-slate-500">{summary}</figcaption>
    </figure>
  );
}
