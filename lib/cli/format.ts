import type { IntervalDto, StatDto } from '@/lib/server/analytics/dto';
import { reportJson } from '@/lib/server/analytics/json';
import { invalid } from '@/lib/server/errors';

/*
 * What every command file needs to read its options and write its answer, written once: the option readers, the
 * writer to stdout, the JSON of a report, and how a statistic is written as text (three decimals, a percentage, a
 * 95 % interval, "— (reason)" for an undefined value).
 */

export type Values = Record<string, string | boolean | undefined>;

export const str = (v: Values, key: string) => (typeof v[key] === 'string' ? (v[key] as string) : undefined);

export function required(v: Values, key: string): string {
  const value = str(v, key);
  if (!value) throw invalid(`--${key} is required.`);
  return value;
}

export const out = (text: string): void => {
  process.stdout.write(text);
};

/** A report as `--json` prints it: one document, statistics as plain numbers (lib/server/analytics/json.ts). */
export const printJson = (dto: unknown) => out(`${JSON.stringify(reportJson(dto), null, 2)}\n`);

export const num = (s: StatDto, digits = 3) => (s.value === null ? `— (${s.reason})` : s.value.toFixed(digits));
export const ci = (i: IntervalDto) => (i.lower === null ? '' : ` [${i.lower.toFixed(3)}, ${i.upper!.toFixed(3)}]`);
export const withCi = (s: StatDto, i: IntervalDto) => `${num(s)}${s.value === null ? '' : ci(i)}`;
export const pct = (s: StatDto) => (s.value === null ? `— (${s.reason})` : `${(100 * s.value).toFixed(1)} %`);
