import { TONE_FILL } from './colors';

/** One bin of the diagram: its confidence range, its items, their mean confidence and accuracy (null: empty bin). */
export type ReliabilityPoint = {
  lower: number;
  upper: number;
  n: number;
  meanConfidence: number | null;
  accuracy: number | null;
};

const SIZE = 240;
const PAD = { left: 40, right: 12, top: 12, bottom: 34 };
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * A reliability diagram: for each confidence bin a bar as tall as the share right (over the bin's range) and a dot
 * at the bin's mean confidence, sized by its items; a perfectly calibrated judge's dots sit on the diagonal, an
 * over-confident one's below it. Plain SVG, drawn on the server or the client alike; empty bins draw nothing.
 */
export function ReliabilityDiagram({ bins, ariaLabel, className }: { bins: ReliabilityPoint[]; ariaLabel: string; className?: string }) {
  const w = SIZE - PAD.left - PAD.right;
  const h = SIZE - PAD.top - PAD.bottom;
  const x = (v: number) => PAD.left + v * w;
  const y = (v: number) => PAD.top + (1 - v) * h;
  const filled = bins.filter((b) => b.n > 0 && b.accuracy !== null && b.meanConfidence !== null);
  const most = filled.reduce((m, b) => Math.max(m, b.n), 1);
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  return (
    <svg role="img" aria-label={ariaLabel} viewBox={`0 0 ${SIZE} ${SIZE}`} className={className} width={SIZE} height={SIZE}>
      {TICKS.map((t) => (
        <g key={t}>
          <line x1={x(0)} x2={x(1)} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
          <text x={PAD.left - 6} y={y(t) + 3} textAnchor="end" fontSize="9" fill="#475569">
            {t}
          </text>
          <text x={x(t)} y={SIZE - PAD.bottom + 12} textAnchor="middle" fontSize="9" fill="#475569">
            {t}
          </text>
        </g>
      ))}
      <text x={PAD.left + w / 2} y={SIZE - 4} textAnchor="middle" fontSize="10" fill="#334155">
        confidence
      </text>
      <text x={10} y={PAD.top + h / 2} textAnchor="middle" fontSize="10" fill="#334155" transform={`rotate(-90 10 ${PAD.top + h / 2})`}>
        share right
      </text>
      <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="#94a3b8" strokeDasharray="4 3" />
      {filled.map((b) => (
        <g key={`${b.lower}-${b.upper}`} data-testid="reliability-bin">
          <title>{`confidence ${pct(b.lower)}–${pct(b.upper)}: ${b.n} item(s), mean confidence ${pct(b.meanConfidence!)}, right ${pct(b.accuracy!)}`}</title>
          <rect
            x={x(b.lower) + 1}
            width={Math.max(1, x(b.upper) - x(b.lower) - 2)}
            y={y(b.accuracy!)}
            height={y(0) - y(b.accuracy!)}
            fill={TONE_FILL.accent}
            opacity={0.18}
          />
          <circle cx={x(b.meanConfidence!)} cy={y(b.accuracy!)} r={2.5 + 4 * Math.sqrt(b.n / most)} fill={TONE_FILL.accent} />
        </g>
      ))}
    </svg>
  );
}
