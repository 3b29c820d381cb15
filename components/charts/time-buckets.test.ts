import { describe, expect, it } from 'vitest';
import { detectGranularity, seriesNames, toTimeRows, type TimePoint } from './time-buckets';

describe('detectGranularity', () => {
  it('recognises days, hours and anything else', () => {
    expect(detectGranularity([{ t: '2025-03-04', value: 1 }])).toBe('day');
    expect(
      detectGranularity([
        { t: '2025-03-04T14', value: 1 },
        { t: '2025-03-04T15:00:00Z', value: 1 },
      ]),
    ).toBe('hour');
    expect(detectGranularity([{ t: 'week 12', value: 1 }])).toBe('other');
  });
});

describe('toTimeRows', () => {
  it('labels buckets as written, without shifting them into another time zone', () => {
    const rows = toTimeRows([{ t: '2025-12-31T23:00:00+05:00', value: 2 }], [''], false);
    expect(rows.map((r) => r.label)).toEqual(['Dec 31, 23:00']);
  });

  it('sorts buckets by time and fills missing days with zero', () => {
    const points: TimePoint[] = [
      { t: '2025-03-04', value: 5 },
      { t: '2025-03-01', value: 2 },
    ];
    const rows = toTimeRows(points, [''], true);
    expect(rows.map((r) => [r.label, r.values[0]])).toEqual([
      ['Mar 1', 2],
      ['Mar 2', 0],
      ['Mar 3', 0],
      ['Mar 4', 5],
    ]);
  });

  it('fills across a month end by calendar, not by 30-day months', () => {
    const rows = toTimeRows(
      [
        { t: '2024-02-28', value: 1 },
        { t: '2024-03-01', value: 1 },
      ],
      [''],
      true,
    );
    expect(rows.map((r) => r.label)).toEqual(['Feb 28', 'Feb 29', 'Mar 1']);
  });

  it('keeps gaps when asked to', () => {
    const rows = toTimeRows(
      [
        { t: '2025-03-01', value: 1 },
        { t: '2025-03-04', value: 1 },
      ],
      [''],
      false,
    );
    expect(rows).toHaveLength(2);
  });

  it('puts each series in its own column and sums repeated buckets', () => {
    const points: TimePoint[] = [
      { t: '2025-03-01T09', value: 1, series: 'ann1' },
      { t: '2025-03-01T09', value: 2, series: 'ann2' },
      { t: '2025-03-01T09', value: 4, series: 'ann1' },
      { t: '2025-03-01T10', value: 3, series: 'ann2' },
    ];
    const names = seriesNames(points);
    expect(names).toEqual(['ann1', 'ann2']);
    expect(toTimeRows(points, names, true).map((r) => [r.label, ...r.values])).toEqual([
      ['Mar 1, 09:00', 5, 2],
      ['Mar 1, 10:00', 0, 3],
    ]);
  });

  it('keeps unrecognised bucket names in the order given', () => {
    const rows = toTimeRows(
      [
        { t: 'week 2', value: 1 },
        { t: 'week 1', value: 1 },
      ],
      [''],
      true,
    );
    expect(rows.map((r) => r.label)).toEqual(['week 2', 'week 1']);
  });
});
