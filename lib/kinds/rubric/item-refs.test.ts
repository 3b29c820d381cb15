import { describe, expect, it } from 'vitest';
import { codeOf } from '@/test/errors';
import { itemIdOfRef, itemRefOf } from './item-refs';

const study = { id: 4, seed: 7, createdAt: new Date('2026-11-20T10:00:00Z') };

describe('an adjudicator’s item numbers', () => {
  it('decode to the item they were made from, and no two items share one', () => {
    const ids = [...Array.from({ length: 5000 }, (_, i) => i + 1), 65_535, 65_536, 2 ** 30 - 1, 2 ** 30];
    const refs = ids.map((id) => itemRefOf(study, id));
    expect(new Set(refs).size).toBe(ids.length);
    for (const [k, ref] of refs.entries()) {
      expect(ref).toBeGreaterThanOrEqual(1);
      expect(ref).toBeLessThanOrEqual(2 ** 30);
      expect(itemIdOfRef(study, ref)).toBe(ids[k]);
    }
  });

  it('do not follow the ids: consecutive items get numbers that rise about half the time', () => {
    const refs = Array.from({ length: 2000 }, (_, i) => itemRefOf(study, 1000 + i));
    const rising = refs.slice(1).filter((r, i) => r > refs[i]).length / (refs.length - 1);
    expect(rising).toBeGreaterThan(0.4);
    expect(rising).toBeLessThan(0.6);
  });

  it('differ between studies, and are the same on every call', () => {
    const other = { ...study, id: 5 };
    const same = Array.from({ length: 100 }, (_, i) => itemRefOf(study, i + 1) === itemRefOf(other, i + 1)).filter(Boolean).length;
    expect(same).toBeLessThan(5);
    expect(itemRefOf(study, 42)).toBe(itemRefOf({ ...study }, 42));
  });

  it('refuse a number out of range as "not found"', () => {
    for (const ref of [0, -1, 1.5, 2 ** 30 + 1, Number.NaN])
      expect(
        codeOf(() => itemIdOfRef(study, ref)),
        String(ref),
      ).toBe('not_found');
  });
});
