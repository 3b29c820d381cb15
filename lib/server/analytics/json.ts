import 'server-only';
import type { StatDto } from './dto';

/*
 * The JSON form of a report (the CLI's `--json`, downloads): every `StatDto` becomes a plain number, or `null` with
 * its reason in a sibling key `<name>Reason`; a record of StatDtos (e.g. `principleLevelAcc`) becomes a record of
 * numbers-or-null with a sibling `<name>Reasons` record for the null ones. Intervals and counts are kept as they
 * are. A reader can then take `.overall.alignmentRate` as a number without unwrapping, and still learn why a
 * value is missing.
 */

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function isStat(x: unknown): x is StatDto {
  if (!isPlainObject(x) || !('value' in x)) return false;
  if (!(typeof x.value === 'number' || x.value === null)) return false;
  return Object.keys(x).every((k) => k === 'value' || k === 'reason');
}

function isStatRecord(x: unknown): x is Record<string, StatDto> {
  if (!isPlainObject(x)) return false;
  const values = Object.values(x);
  return values.length > 0 && values.every(isStat);
}

export function reportJson(dto: unknown): unknown {
  if (Array.isArray(dto)) return dto.map(reportJson);
  if (!isPlainObject(dto)) return dto;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(dto)) {
    if (isStat(v)) {
      out[key] = v.value;
      if (v.value === null) out[`${key}Reason`] = v.reason;
    } else if (isStatRecord(v)) {
      out[key] = Object.fromEntries(Object.entries(v).map(([k, s]) => [k, s.value]));
      const reasons = Object.entries(v).filter(([, s]) => s.value === null);
      if (reasons.length) out[`${key}Reasons`] = Object.fromEntries(reasons.map(([k, s]) => [k, s.reason]));
    } else {
      out[key] = reportJson(v);
    }
  }
  return out;
}
