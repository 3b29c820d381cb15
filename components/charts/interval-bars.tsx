'use client';

import { useMemo } from 'react';
import {
  ComposedChart,
  CartesianGrid,
  ErrorBar,
  ReferenceArea,
  ReferenceLine,
  Scatter,
  XAxis,
  YAxis,
  type YAxisTickContentProps,
} from 'recharts';
import { cn } from '../ui/cn';
import { TONE_BAND, TONE_FILL, type ChartTone } from './colors';

export type IntervalRow = {
  label: string;
  /** Point estimate; null when undefined (the note says why). */
  value: number | null;
  /** 95 % interval bounds; null when not available. */
  lo: number | null;
  hi: number | null;
  note?: string;
};

export type IntervalBand = { from: number; to: number; label: string; tone?: ChartTone };

export type IntervalBarsProps = {
  rows: IntervalRow[];
  /** The x range shown, e.g. [0, 1] for agreement rates or [-1, 1] for α and κ. */
  domain: [number, number];
  /** Interpretation ranges drawn behind the points, e.g. α < 0.667 "unreliable". */
  bands?: IntervalBand[];
  /** Names the chart for assistive technology. */
  ariaLabel: string;
  /** Decimals in value labels. */
  digits?: number;
  className?: string;
};

const ROW_HEIGHT = 44;
const LABEL_WIDTH = 190;
const LABEL_CHARS = 30;

/**
 * Point estimates with 95 % interval whiskers on a shared axis, one row per
 * label (a forest plot). Undefined values keep their row and read "n/a", so a
 * criterion never silently disappears from the chart.
 */
export function IntervalBars({ rows, domain, bands = [], ariaLabel, digits = 2, className }: IntervalBarsProps) {
  const format = (v: number) => v.toFixed(digits);
  const summaries = rows.map((row) => {
    if (row.value === null) return 'n/a';
    const interval = row.lo !== null && row.hi !== null ? ` [${format(row.lo)}, ${format(row.hi)}]` : '';
    return `${format(row.value)}${interval}`;
  });

  const data = useMemo(
    () =>
      rows.map((row, index) => ({
        key: String(index),
        value: row.value,
        error:
          row.value !== null && row.lo !== null && row.hi !== null
            ? [Math.max(0, row.value - row.lo), Math.max(0, row.hi - row.value)]
            : undefined,
      })),
    [rows],
  );

  const notes = rows.filter((row) => row.note);
  const ticks = axisTicks(domain);

  return (
    <figure aria-label={ariaLabel} className={cn('w-full', className)}>
      <div aria-hidden="true">
        <ComposedChart
          layout="vertical"
          responsive
          accessibilityLayer={false}
          data={data}
          style={{ width: '100%', height: rows.length * ROW_HEIGHT + 40 }}
          margin={{ top: bands.length > 0 ? 22 : 8, right: 20, bottom: 4, left: 0 }}
        >
          {bands.map((band, i) => (
            <ReferenceArea
              key={`${band.from}-${band.to}-${band.label}`}
              x1={Math.max(band.from, domain[0])}
              x2={Math.min(band.to, domain[1])}
              fill={TONE_BAND[band.tone ?? (i % 2 === 0 ? 'neutral' : 'info')]}
              fillOpacity={1}
              ifOverflow="hidden"
              label={{ value: band.label, position: 'top', fontSize: 11, fill: '#475569' }}
            />
          ))}
          <CartesianGrid stroke="#e2e8f0" horizontal={false} />
          {domain[0] < 0 && domain[1] > 0 ? <ReferenceLine x={0} stroke="#94a3b8" /> : null}
          <XAxis
            type="number"
            dataKey="value"
            domain={domain}
            ticks={ticks}
            allowDataOverflow
            tick={{ fontSize: 12, fill: '#475569' }}
            tickFormatter={(v: number) => String(Number(v.toFixed(2)))}
          />
          <YAxis
            type="category"
            dataKey="key"
            width={LABEL_WIDTH}
            interval={0}
            tickLine={false}
            // Bands, not points: each row gets a slot, so the first and last rows
            // stay off the plot's edges and reference areas span all rows.
            scale="band"
            tick={(props: YAxisTickContentProps) => (
              <RowTick
                x={Number(props.x)}
                y={Number(props.y)}
                label={rows[Number(props.payload.value)]?.label ?? ''}
                summary={summaries[Number(props.payload.value)] ?? ''}
              />
            )}
          />
          <Scatter dataKey="value" fill={TONE_FILL.accent} isAnimationActive={false} shape="circle">
            <ErrorBar dataKey="error" direction="x" width={6} strokeWidth={1.5} stroke="#334155" />
          </Scatter>
        </ComposedChart>
      </div>
      {notes.length > 0 ? (
        <ul className="mt-2 space-y-0.5 text-xs text-slate-500">
          {notes.map((row) => (
            <li key={row.label}>
              <span className="font-medium text-slate-700">{row.label}</span>
              {row.value === null ? ' (n/a)' : ''}: {row.note}
            </li>
          ))}
        </ul>
      ) : null}
      <table className="sr-only">
        <caption>{ariaLabel}</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Value</th>
            <th scope="col">95% interval</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={`${index}-${row.label}`}>
              <th scope="row">{row.label}</th>
              <td>{row.value === null ? 'n/a' : format(row.value)}</td>
              <td>{row.lo !== null && row.hi !== null ? `${format(row.lo)} to ${format(row.hi)}` : 'n/a'}</td>
              <td>{row.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {bands.length > 0 ? (
        <p className="sr-only">Bands: {bands.map((band) => `${band.label} from ${band.from} to ${band.to}`).join('; ')}.</p>
      ) : null}
    </figure>
  );
}

function RowTick({ x, y, label, summary }: { x: number; y: number; label: string; summary: string }) {
  const shown = label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
  return (
    <g transform={`translate(${x - LABEL_WIDTH + 16},${y})`}>
      <title>{label}</title>
      <text x={0} y={-3} fontSize={12} fill="#0f172a" textAnchor="start">
        {shown}
      </text>
      <text x={0} y={12} fontSize={11} fill={summary === 'n/a' ? '#b45309' : '#475569'} textAnchor="start">
        {summary}
      </text>
    </g>
  );
}

/** About five evenly spaced ticks at round steps across the domain. */
function axisTicks([min, max]: [number, number]): number[] {
  const span = max - min;
  if (!(span > 0)) return [min];
  const rough = span / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step / 1e6; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}
