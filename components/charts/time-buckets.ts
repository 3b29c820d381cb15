/**
 * Turns server-made time buckets into chart rows. Bucket strings are shown as
 * written ("2025-03-04" → "Mar 4", "2025-03-04T14" → "Mar 4, 14:00"): the
 * server chose the time zone when it bucketed, and reading them through the
 * browser's zone would shift them and make server and client HTML disagree.
 */

export type TimePoint = { t: string; value: number; series?: string };

export type Granularity = 'day' | 'hour' | 'other';

export type TimeRow = { key: string; label: string; values: number[] };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2})(?::\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Beyond this many empty buckets the gaps are left unfilled rather than
// drawing thousands of zero points.
const MAX_FILLED_BUCKETS = 2_000;

function bucketTime(t: string, granularity: Granularity): number | null {
  const day = DAY.exec(t);
  if (day) return Date.UTC(+day[1], +day[2] - 1, +day[3]);
  if (granularity !== 'hour') return null;
  const hour = HOUR.exec(t);
  return hour ? Date.UTC(+hour[1], +hour[2] - 1, +hour[3], +hour[4]) : null;
}

function labelFor(ms: number, granularity: Granularity): string {
  const date = new Date(ms);
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
  if (granularity === 'day') return day;
  return `${day}, ${String(date.getUTCHours()).padStart(2, '0')}:00`;
}

export function detectGranularity(points: readonly TimePoint[]): Granularity {
  if (points.length === 0) return 'other';
  if (points.every((p) => DAY.test(p.t))) return 'day';
  if (points.every((p) => DAY.test(p.t) || HOUR.test(p.t))) return 'hour';
  return 'other';
}

/** Series names in first-seen order; an unnamed series is "". */
export function seriesNames(points: readonly TimePoint[]): string[] {
  const names: string[] = [];
  for (const p of points) {
    const name = p.series ?? '';
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * One row per bucket in time order, one value per series (summed when a bucket
 * repeats). With `fillGaps`, missing day or hour buckets between the first and
 * last become zeros, because for counts an absent bucket means nothing happened
 * and a line drawn straight across the gap would suggest activity.
 */
export function toTimeRows(points: readonly TimePoint[], names: readonly string[], fillGaps: boolean): TimeRow[] {
  const granularity = detectGranularity(points);
  const byKey = new Map<string, { order: number; label: string; values: number[] }>();

  const rowFor = (key: string, order: number, label: string) => {
    let row = byKey.get(key);
    if (!row) {
      row = { order, label, values: names.map(() => 0) };
      byKey.set(key, row);
    }
    return row;
  };

  points.forEach((p, index) => {
    const ms = bucketTime(p.t, granularity);
    const row = ms === null ? rowFor(p.t, index, p.t) : rowFor(String(ms), ms, labelFor(ms, granularity));
    row.values[names.indexOf(p.series ?? '')] += Number.isFinite(p.value) ? p.value : 0;
  });

  if (fillGaps && granularity !== 'other' && byKey.size > 1) {
    const step = granularity === 'day' ? DAY_MS : HOUR_MS;
    const times = [...byKey.values()].map((r) => r.order);
    const first = Math.min(...times);
    const last = Math.max(...times);
    if ((last - first) / step <= MAX_FILLED_BUCKETS) {
      for (let ms = first; ms <= last; ms += step) rowFor(String(ms), ms, labelFor(ms, granularity));
    }
  }

  return [...byKey.entries()].sort((a, b) => a[1].order - b[1].order).map(([key, row]) => ({ key, label: row.label, values: row.values }));
}
