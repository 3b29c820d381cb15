import { cn } from '../ui/cn';
import { formatCount, formatPercent } from '../ui/format';

export type HeatmapProps = {
  rowLabels: string[];
  colLabels: string[];
  /** values[r][c] is the count for row r and column c. */
  values: number[][];
  /** What the rows are, e.g. "Ground truth". */
  rowTitle: string;
  /** What the columns are, e.g. "Judge". */
  colTitle: string;
  /** Names the table for assistive technology; defaults to "<rowTitle> by <colTitle>". */
  ariaLabel?: string;
  /** Outline the diagonal (agreement); on by default for square matrices. */
  highlightDiagonal?: boolean;
  className?: string;
};

// Cell shade grows with the share of its row, in the app's accent hue.
const shade = (share: number) => `oklch(0.51 0.2 265 / ${(0.06 + 0.84 * share).toFixed(3)})`;

/**
 * A confusion matrix as a real table (so screen readers announce each cell with
 * its row and column headers), coloured by each cell's share of its row: with
 * ground truth in rows, the diagonal shade reads as per-class recall.
 */
export function Heatmap({ rowLabels, colLabels, values, rowTitle, colTitle, ariaLabel, highlightDiagonal, className }: HeatmapProps) {
  const diagonal = highlightDiagonal ?? rowLabels.length === colLabels.length;
  const rowTotals = rowLabels.map((_, r) => colLabels.reduce((sum, _c, c) => sum + (values[r]?.[c] ?? 0), 0));
  const colTotals = colLabels.map((_, c) => rowLabels.reduce((sum, _r, r) => sum + (values[r]?.[c] ?? 0), 0));
  const grandTotal = rowTotals.reduce((a, b) => a + b, 0);
  const label = ariaLabel ?? `${rowTitle} by ${colTitle}`;

  return (
    <div className={cn('overflow-x-auto', className)}>
      <table className="border-separate border-spacing-1 text-sm" aria-label={label}>
        <caption className="sr-only">
          {label}. Rows: {rowTitle}. Columns: {colTitle}. Each cell gives the count and its share of the row.
        </caption>
        <thead>
          <tr>
            <td />
            <th
              scope="colgroup"
              colSpan={colLabels.length}
              className="pb-1 text-center text-xs font-semibold tracking-wide text-slate-600 uppercase"
            >
              {colTitle} →
            </th>
            <td />
          </tr>
          <tr>
            <th scope="col" className="px-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              {rowTitle} ↓
            </th>
            {colLabels.map((col) => (
              <th key={col} scope="col" className="min-w-20 px-2 pb-1 text-center font-medium text-slate-700">
                {col}
              </th>
            ))}
            <th scope="col" className="px-2 pb-1 text-right text-xs font-medium text-slate-500">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rowLabels.map((row, r) => (
            <tr key={row}>
              <th scope="row" className="px-2 text-left font-medium whitespace-nowrap text-slate-700">
                {row}
              </th>
              {colLabels.map((col, c) => {
                const count = values[r]?.[c] ?? 0;
                const share = rowTotals[r] === 0 ? null : count / rowTotals[r];
                const dark = share !== null && share > 0.5;
                return (
                  <td
                    key={col}
                    className={cn(
                      'h-16 rounded-md px-2 text-center align-middle tabular-nums',
                      dark ? 'text-white' : 'text-slate-900',
                      diagonal && r === c && 'outline-2 -outline-offset-2 outline-slate-900/70',
                    )}
                    style={{ backgroundColor: share === null ? '#f8fafc' : shade(share) }}
                  >
                    <span className="block text-base font-semibold">{formatCount(count)}</span>
                    <span className={cn('block text-xs', dark ? 'text-white/85' : 'text-slate-600')}>
                      {share === null ? '—' : formatPercent(share)}
                      <span className="sr-only"> of row</span>
                    </span>
                  </td>
                );
              })}
              <td className="px-2 text-right text-slate-500 tabular-nums">{formatCount(rowTotals[r])}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="px-2 pt-1 text-left text-xs font-medium text-slate-500">
              Total
            </th>
            {colTotals.map((total, c) => (
              <td key={colLabels[c]} className="px-2 pt-1 text-center text-slate-500 tabular-nums">
                {formatCount(total)}
              </td>
            ))}
            <td className="px-2 pt-1 text-right font-medium text-slate-700 tabular-nums">{formatCount(grandTotal)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
