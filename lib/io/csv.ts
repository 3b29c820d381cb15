import { stringify } from 'csv-stringify/sync';

/*
 * CSV export, one row at a time so exports can stream. Rows end in CRLF as
 * RFC 4180 prescribes (spreadsheet programs expect it); a field is quoted when
 * it contains a comma, a double quote, CR or LF, and quotes are doubled.
 */

export const CSV_LINE_END = '\r\n';

// Characters that make a spreadsheet read a cell as a formula (or, for tab and
// CR, let a formula follow); see OWASP "CSV injection".
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises a string cell that a spreadsheet would execute as a formula by
 * prefixing a single quote. Only strings are touched: a number such as -1 is
 * data, while the text "-1+A1" could be a formula.
 */
export function neutralizeCell<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** The text of one cell: empty for null/undefined, ISO 8601 for dates, JSON for objects and arrays. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return JSON.stringify(value) ?? '';
}

/** One CSV row with its CRLF terminator; every string cell is neutralised. */
export function csvLine(values: readonly unknown[]): string {
  const cells = values.map((v) => (typeof v === 'string' ? (neutralizeCell(v) as string) : cellText(v)));
  return stringify([cells], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

/** The header row (same quoting and neutralisation as data rows). */
export function csvHeader(columns: readonly string[]): string {
  return csvLine(columns);
}
