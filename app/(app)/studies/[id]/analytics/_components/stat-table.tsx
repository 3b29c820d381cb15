import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import { type ColumnSpec, type IntervalDto, isStatColumn, readStat } from '@/lib/server/analytics/dto';
import { type NumberKind, count } from './format';
import { Th } from './th';
import { Value } from './value';

/*
 * A dashboard table given as its columns and its rows: every column names its header and how a row fills its cell.
 * Every dashboard draws its tables with it; a report whose tables are column specs (lib/server/analytics/dto)
 * gives its columns through `specColumns`, the same specs the CSV and the CLI read.
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

/** How the dashboards write a spec's kind of value: κ-like values with three decimals, p-values so down to "< 0.001", shares as %. */
const NUMBER_KIND: Record<string, NumberKind> = { percent: 'rate', ratio: 'coef', 'p-value': 'p' };

/** The screen's columns of a table spec: a statistic with its interval and reason, a name with its note, a count. */
export function specColumns<R>(columns: readonly ColumnSpec<R>[]): Column<R>[] {
  return columns.flatMap((c): Column<R>[] => {
    if (c.csvOnly) return [];
    if (isStatColumn(c)) {
      const kind = NUMBER_KIND[c.value];
      return [
        {
          head: c.header,
          key: c.id,
          numeric: true,
          cell: (row) => {
            const s = readStat(row, c.key);
            return <Value value={s.value} reason={s.reason} kind={kind} interval={s.interval} testId={c.testId} />;
          },
        },
      ];
    }
    if (c.value === 'count') return [{ head: c.header, key: c.id, numeric: true, cell: (row) => count(Number(c.get(row) ?? 0)) }];
    return [
      {
        head: c.header,
        key: c.id,
        cell: (row) => {
          const note = c.note?.(row);
          const shown = c.display ? c.display(row) : c.get(row);
          if (!c.note) return shown;
          return (
            <>
              <span className="font-medium">{shown}</span>
              {note ? <span className="block text-xs text-slate-500">{note}</span> : null}
            </>
          );
        },
      },
    ];
  });
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
  rowTestId,
  groupBy,
  wrapperClassName,
}: {
  caption: string;
  testId?: string;
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  /** The whole row's cells, for a row the columns cannot fill (e.g. one cell spanning several); `undefined` keeps the columns. */
  rowCells?: (row: R) => ReactNode | undefined;
  rowTestId?: string;
  /** Rows in groups, each under a heading row (e.g. the reviewer pairs of each criterion); rows keep their order. */
  groupBy?: { key: (row: R) => string; label: (row: R) => ReactNode };
  wrapperClassName?: string;
}) {
  const keyOf = (c: Column<R>, i: number) => c.key ?? (typeof c.head === 'string' ? c.head : String(i));
  const row = (r: R) => (
    <TR key={rowKey(r)} data-testid={rowTestId}>
      {rowCells?.(r) ??
        columns.map((c, i) => (
          <TD key={keyOf(c, i)} numeric={c.numeric} className={c.className?.(r)}>
            {c.cell(r)}
          </TD>
        ))}
    </TR>
  );
  const groups: { key: string; label: ReactNode; rows: R[] }[] = [];
  if (groupBy)
    for (const r of rows) {
      const key = groupBy.key(r);
      const last = groups.at(-1);
      if (last?.key === key) last.rows.push(r);
      else groups.push({ key, label: groupBy.label(r), rows: [r] });
    }
  return (
    <Table caption={caption} captionHidden data-testid={testId} wrapperClassName={wrapperClassName}>
      <THead>
        <TR>
          {columns.map((c, i) => (
            <Th key={keyOf(c, i)} numeric={c.numeric}>
              {c.head}
            </Th>
          ))}
        </TR>
      </THead>
      {groupBy ? (
        groups.map((g) => (
          <TBody key={g.key}>
            <TR className="bg-slate-50">
              <Th scope="colgroup" colSpan={columns.length}>
                {g.label}
              </Th>
            </TR>
            {g.rows.map(row)}
          </TBody>
        ))
      ) : (
        <TBody>{rows.map(row)}</TBody>
      )}
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
