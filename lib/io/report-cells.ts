import type { IntervalDto, StatDto } from '@/lib/server/analytics/dto';
import { csvHeader, csvLine } from './csv';

/*
 * The cell conventions every report table follows as CSV: a statistic with an interval takes `<name>`,
 * `<name>_lower`, `<name>_upper`, `<name>_reason`; a value without one `<name>`, `<name>_reason`; numbers at full
 * precision.
 */

export const statCols = (name: string) => [name, `${name}_lower`, `${name}_upper`, `${name}_reason`];
export const valueCols = (name: string) => [name, `${name}_reason`];

/** A statistic and its interval; the reason is the statistic's, else the interval's. */
export function statCells(s: StatDto, i: IntervalDto): unknown[] {
  const reason = s.value === null ? s.reason : i.lower === null ? i.reason : undefined;
  return [s.value, i.lower, i.upper, reason ?? null];
}

export const valueCells = (s: StatDto): unknown[] => [s.value, s.value === null ? s.reason : null];

/** A table as CSV lines, header first. */
export const csvTable = (columns: string[], rows: unknown[][]): string[] => [csvHeader(columns), ...rows.map((r) => csvLine(r))];
