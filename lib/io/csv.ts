/*
 * CSV export, one row at a time so exports can stream. Rows end in CRLF as RFC 4180 prescribes (spreadsheet
 * programs expect it). Every text cell is quoted, quotes doubled; numbers and booleans are written bare, and
 * null or undefined as an empty, unquoted cell.
 */

// Characters that make a spreadsheet read a cell as a formula (or, for tab and CR, let a formula follow);
// see OWASP "CSV injection".
const FORMULA_START = /^[=+\-@\t\r]/;
// The same after a field separator or a line break: a spreadsheet set to another locale (`;` in much of Europe)
// or an importer that ignores quotes splits a cell at a separator, and reads each physical line (after CR, LF or
// CRLF) as a row of its own; either way the part that follows starts a cell of its own.
const FORMULA_AFTER_SEPARATOR = /([;,\r\n])(?=[=+\-@\t\r])/g;

/**
 * Neutralises a string cell that a spreadsheet could execute as a formula by putting a single quote before
 * the formula: at the start of the cell, and after every `;`, `,`, CR or LF that a formula character follows (so
 * that `x;=cmd|' /C calc'!A0;y` becomes `x;'=cmd|' /C calc'!A0;y`, and `x\n=HYPERLINK(…)` becomes
 * `x\n'=HYPERLINK(…)`). Only strings are touched: a number such as -1 is
 * data, while the text "-1+A1" could be a formula.
 */
export function neutralizeCell<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  const inner = value.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** One cell as written: text neutralised and quoted, numbers and booleans bare, dates in ISO 8601, objects as JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return quoted(neutralizeCell(value) as string);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : quoted(value.toISOString());
  return quoted(neutralizeCell(JSON.stringify(value) ?? '') as string);
}

/** One CSV row with its CRLF terminator. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(cell).join(',') + '\r\n';
}

/** Several rows at once: what concatenated `csvLine` calls give. */
export function csvLines(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) out += csvLine(row);
  return out;
}

/** The header row (same quoting and neutralisation as data rows). */
export function csvHeader(columns: readonly string[]): string {
  return csvLine(columns);
}
