'use client';

import { useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { cn } from '../ui/cn';
import { formatCount } from '../ui/format';
import { SERIES_COLORS } from './colors';
import { seriesNames, toTimeRows, type TimePoint } from './time-buckets';

export type { TimePoint } from './time-buckets';

export type TimeSeriesChartProps = {
  /** One point per bucket and series; `t` is an ISO day ("2025-03-04") or hour ("2025-03-04T14"). */
  data: TimePoint[];
  /** What the values count ("Submissions"); labels the y axis. */
  yLabel: string;
  /** Names the chart for assistive technology; defaults to "<yLabel> over time". */
  ariaLabel?: string;
  /** Missing day/hour buckets count as zero (right for counts). */
  fillGaps?: boolean;
  height?: number;
  className?: string;
};

// The table read to screen readers stays short enough to listen to.
const MAX_TABLE_ROWS = 60;

export function TimeSeriesChart({ data, yLabel, ariaLabel, fillGaps = true, height = 260, className }: TimeSeriesChartProps) {
  const names = useMemo(() => seriesNames(data), [data]);
  const rows = useMemo(() => toTimeRows(data, names, fillGaps), [data, names, fillGaps]);
  const chartRows = useMemo(
    () =>
      rows.map((row) => {
        const record: Record<string, string | number> = { label: row.label };
        // Index-based keys: series names are data and could clash with "label".
        row.values.forEach((value, i) => (record[`s${i}`] = value));
        return record;
      }),
    [rows],
  );
  const label = ariaLabel ?? `${yLabel} over time`;
  const multi = names.length > 1;
  const displayName = (name: string) => (name === '' ? yLabel : name);

  if (rows.length === 0) {
    return (
      <figure aria-label={label} className={cn('text-sm text-slate-500', className)}>
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center">No data yet.</p>
      </figure>
    );
  }

  const totals = names.map((_, i) => rows.reduce((sum, row) => sum + row.values[i], 0));
  const summary = `${names
    .map((name, i) => `${displayName(name)}: ${formatCount(totals[i])}`)
    .join('; ')} from ${rows[0].label} to ${rows[rows.length - 1].label}.`;

  const axes = (
    <>
      <CartesianGrid stroke="#e2e8f0" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} minTickGap={24} />
      <YAxis
        tick={{ fontSize: 12, fill: '#475569' }}
        tickLine={false}
        axisLine={false}
        tickFormatter={(v: number) => formatCount(v)}
        width={56}
        label={{ value: yLabel, angle: -90, position: 'insideLeft', fontSize: 12, fill: '#475569', dy: 40 }}
      />
      <Tooltip formatter={(value) => (typeof value === 'number' ? formatCount(value) : String(value ?? ''))} />
    </>
  );

  return (
    <figure aria-label={label} className={cn('w-full', className)}>
      <div aria-hidden="true">
        {multi ? (
          <LineChart
            responsive
            accessibilityLayer={false}
            data={chartRows}
            style={{ width: '100%', height }}
            margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
          >
            {axes}
            <Legend verticalAlign="top" height={28} iconType="plainline" />
            {names.map((name, i) => (
              <Line
                key={`${i}-${name}`}
                type="monotone"
                dataKey={`s${i}`}
                name={displayName(name)}
                stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
                strokeWidth={2}
                dot={rows.length <= 31}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : (
          <AreaChart
            responsive
            accessibilityLayer={false}
            data={chartRows}
            style={{ width: '100%', height }}
            margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
          >
            {axes}
            <Area
              type="monotone"
              dataKey="s0"
              name={displayName(names[0])}
              stroke={SERIES_COLORS[0]}
              fill={SERIES_COLORS[0]}
              fillOpacity={0.12}
              strokeWidth={2}
              isAnimationActive={false}
            />
          </AreaChart>
        )}
      </div>
      <figcaption className="mt-1 text-xs text-slate-500">{summary}</figcaption>
      {rows.length <= MAX_TABLE_ROWS ? (
        <table className="sr-only">
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {names.map((name, i) => (
                <th key={`${i}-${name}`} scope="col">
                  {displayName(name)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                {row.values.map((value, i) => (
                  <td key={i}>{formatCount(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </figure>
  );
}
