import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { IntervalDto } from '@/lib/server/analytics/dto';
import type { NumberKind } from './format';
import { Th } from './th';
import { Value } from './value';

/*
 * A dashboard table given as its columns and its rows: every column names its header and how a row fills its cell.
 * The rubric dashboards draw all their tables with it.
 */

export type Column<R> = {
  head: ReactNode;
  /** React key of the header and the cells; the header's text when omitted. */
  key?: string;
  numeric?: boolean;
  cell: (row: R) => ReactNode;
  /** Class of the cell, per row. */
  className?: (row: R) => string | undefined;
};

/** A row of the report JSON holding a statistic `key`, its `keyReason` and, where computed, its interval `intervals.key`. */
type Measured<K extends string> = Record<K, number | null> &
  Partial<Record<`${K}Reason`, string>> & {
    intervals?: Partial<Record<K, IntervalDto>>;
  };

/** The column of one statistic of the row, with its reason when undefined and its 95 % interval. */
export function metric<K extends string>(head: string, kind: NumberKind, key: K): Column<Measured<K>> {
  return {
    head,
    numeric: true,
    cell: (row) => {
      const reasons: Partial<Record<`${K}Reason`, string>> = row;
      return <Value value={row[key]} reason={reasons[`${key}Reason`]} kind={kind} interval={row.intervals?.[key]} />;
    },
  };
}

/** A column that reads its cell from a part of the row (e.g. the strict or the lenient summary of a dimension). */
export function via<R, S>(part: (row: R) => S, column: Column<S>): Column<R> {
  const { cell, className } = column;
  return { ...column, cell: (row) => cell(part(row)), className: className && ((row) => className(part(row))) };
}

export function StatTable<R>({
  caption,
  testId,
  columns,
  rows,
  rowKey,
  rowCells,
}: {
  caption: string;
  testId?: string;
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  /** The whole row's cells, for a row the columns cannot fill (e.g. one cell spanning several); `undefined` keeps the columns. */
  rowCells?: (row: R) => ReactNode | undefined;
}) {
  const keyOf = (c: Column<R>, i: number) => c.key ?? (typeof c.head === 'string' ? c.head : String(i));
  return (
    <Table caption={caption} captionHidden data-testid={testId}>
      <THead>
        <TR>
          {columns.map((c, i) => (
            <Th key={keyOf(c, i)} numeric={c.numeric}>
              {c.head}
            </Th>
          ))}
        </TR>
      </THead>
      <TBody>
        {rows.map((r) => (
          <TR key={rowKey(r)}>
            {rowCells?.(r) ??
              columns.map((c, i) => (
                <TD key={keyOf(c, i)} numeric={c.numeric} className={c.className?.(r)}>
                  {c.cell(r)}
                </TD>
              ))}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export const Explain = ({ children }: { children: ReactNode }) => <p className="text-sm text-slate-600">{children}</p>;

/** A card holding a table edge to edge, under a short explanation when there is one. */
export function TableCard({
  title,
  actions,
  explain,
  children,
}: {
  title: string;
  actions?: ReactNode;
  explain?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card title={title} padded={false} actions={actions}>
      {explain ? (
        <div className="px-4 pt-3">
          <Explain>{explain}</Explain>
        </div>
      ) : null}
      {children}
    </Card>
  );
}
