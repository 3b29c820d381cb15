import {
  type ReportDtos,
  type ReportName,
  type ReportTable,
  REPORT_SPECS,
  type AnyTableSpec,
  columnsOf,
  csvCells,
  csvNames,
  isStatColumn,
} from '@/lib/server/analytics/dto';
import { csvHeader, csvLine } from './csv';

/*
 * The tables of the analytics reports as CSV: one header line, then one line per row, each ending in CRLF, every
 * string cell neutralised against formulas (lib/io/csv). Numbers are written at full precision (the page rounds,
 * a download must not).
 *
 * A statistic takes four columns: `<name>`, `<name>_lower`, `<name>_upper` (its 95 % interval) and `<name>_reason`.
 * An undefined value is an empty cell whose reason (docs/cli.md: `no_variation`, `unequal_ratings`, …) is in
 * `_reason`; when the value is defined but its interval is not (e.g. `not_computed` with the bootstrap off), the
 * bounds are empty and `_reason` gives the interval's reason. A value that has no interval takes two columns,
 * `<name>` and `<name>_reason`.
 */

/** One table written from its column specs: the CSV names and cells of every column the CSV shows. */
export function specCsv<D, R>(spec: AnyTableSpec<D, R>, dto: D): string[] {
  const columns = columnsOf(spec, dto).filter((c) => isStatColumn(c) || !c.screenOnly);
  return [
    csvHeader(columns.flatMap((c) => csvNames(c))),
    ...spec.rows(dto).map((row) => csvLine(columns.flatMap((c) => csvCells(c, row)))),
  ];
}

/** One table of a report as CSV lines (header first). */
export function reportCsv<R extends ReportName>(report: R, tableName: ReportTable<R>, dto: ReportDtos[R]): string[] {
  const tables = REPORT_SPECS[report] as Record<string, AnyTableSpec<unknown, unknown>>;
  return specCsv(tables[tableName], dto);
}
