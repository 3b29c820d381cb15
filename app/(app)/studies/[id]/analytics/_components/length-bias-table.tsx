import type { IntervalDto } from '@/lib/server/analytics/dto';
import { count } from './format';
import { type Column, StatTable } from './stat-table';
import { Value } from './value';

const GROUND_TRUTH = 'ground truth';

export type LengthBiasRow = {
  grader: string;
  /** The criterion or dimension, as shown under the grader. */
  scope: string;
  n: number;
  slope: number | null;
  slopeReason?: string;
  slopeInterval: IntervalDto;
  pValue: number | null;
  pValueReason?: string;
  /** Per fifth: the share shown (win share, or share of the desired label) and the range of the length measure. */
  bins: { bin: number; value: number | null; reason?: string; lowerEdge: number; upperEdge: number }[];
};

/**
 * The length bias of each grader, one row per grader and criterion (pairwise) or dimension (rubric): items, the
 * logistic slope with its interval and p, and the share in each fifth of the items ordered by the length measure.
 */
export function LengthBiasTable({
  rows,
  unit,
  fifths,
  itemsLabel,
  scopeLabel,
}: {
  rows: LengthBiasRow[];
  /** What the bins' ranges measure, as their tooltip says (e.g. "range of d"). */
  unit: string;
  /** Headings of the first and last fifth. */
  fifths: [string, string];
  /** What a row counts ("Items", "Replies") and what it is per ("criterion", "dimension"). */
  itemsLabel: string;
  scopeLabel: string;
}) {
  const groundTruth = (l: LengthBiasRow) => (l.grader === GROUND_TRUTH ? 'bg-slate-50/70' : undefined);
  const columns: Column<LengthBiasRow>[] = [
    {
      head: `Grader · ${scopeLabel}`,
      cell: (l) => (
        <>
          <span className="font-medium">{l.grader === GROUND_TRUTH ? 'Ground truth' : l.grader}</span>
          <span className="block text-xs text-slate-500">{l.scope}</span>
        </>
      ),
    },
    { head: itemsLabel, numeric: true, cell: (l) => count(l.n) },
    {
      head: 'Slope',
      numeric: true,
      cell: (l) => <Value value={l.slope} reason={l.slopeReason} kind="coef" interval={l.slopeInterval} testId="length-slope" />,
    },
    { head: 'p', numeric: true, cell: (l) => <Value value={l.pValue} reason={l.pValueReason} kind="p" /> },
    ...[1, 2, 3, 4, 5].map((bin): Column<LengthBiasRow> => ({
      key: `fifth ${bin}`,
      head: (
        <>
          <span className="block text-[10px] font-normal text-slate-500">fifth {bin}</span>
          {bin === 1 ? fifths[0] : bin === 5 ? fifths[1] : ''}
        </>
      ),
      numeric: true,
      cell: (l) => {
        const b = l.bins.find((x) => x.bin === bin);
        if (!b) return null;
        return (
          <>
            <Value value={b.value} reason={b.reason} kind="rate" />
            <span className="block text-xs text-slate-500" title={unit}>
              {Math.round(b.lowerEdge)}…{Math.round(b.upperEdge)}
            </span>
          </>
        );
      },
    })),
  ];
  for (const c of columns) c.className = groundTruth;
  return (
    <StatTable
      caption="Length bias per grader"
      testId="length-table"
      rowTestId="length-row"
      wrapperClassName="rounded-none border-0"
      columns={columns}
      rows={rows}
      rowKey={(l) => `${l.grader}\u0000${l.scope}`}
    />
  );
}
