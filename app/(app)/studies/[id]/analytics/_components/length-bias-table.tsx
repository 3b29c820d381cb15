import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { IntervalDto } from '@/lib/server/analytics/dto';
import { count } from './format';
import { Th } from './th';
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
  return (
    <Table caption="Length bias per grader" captionHidden wrapperClassName="rounded-none border-0" data-testid="length-table">
      <THead>
        <TR>
          <Th>Grader · {scopeLabel}</Th>
          <Th numeric>{itemsLabel}</Th>
          <Th numeric>Slope</Th>
          <Th numeric>p</Th>
          {[1, 2, 3, 4, 5].map((b) => (
            <Th key={b} numeric>
              <span className="block text-[10px] font-normal text-slate-500">fifth {b}</span>
              {b === 1 ? fifths[0] : b === 5 ? fifths[1] : ''}
            </Th>
          ))}
        </TR>
      </THead>
      <TBody>
        {rows.map((l) => (
          <TR
            key={`${l.grader}\u0000${l.scope}`}
            className={l.grader === GROUND_TRUTH ? 'bg-slate-50/70' : undefined}
            data-testid="length-row"
          >
            <TD>
              <span className="font-medium">{l.grader === GROUND_TRUTH ? 'Ground truth' : l.grader}</span>
              <span className="block text-xs text-slate-500">{l.scope}</span>
            </TD>
            <TD numeric>{count(l.n)}</TD>
            <TD numeric>
              <Value value={l.slope} reason={l.slopeReason} kind="coef" interval={l.slopeInterval} testId="length-slope" />
            </TD>
            <TD numeric>
              <Value value={l.pValue} reason={l.pValueReason} kind="p" />
            </TD>
            {l.bins.map((b) => (
              <TD key={b.bin} numeric>
                <Value value={b.value} reason={b.reason} kind="rate" />
                <span className="block text-xs text-slate-500" title={unit}>
                  {Math.round(b.lowerEdge)}…{Math.round(b.upperEdge)}
                </span>
              </TD>
            ))}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
