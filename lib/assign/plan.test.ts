import { describe, expect, it } from 'vitest';
import { planBalanced, planFixedSets } from './plan';

const items = Array.from({ length: 101 }, (_, i) => i + 1);

describe('planBalanced', () => {
  it('gives every item exactly the planned number of distinct reviewers', () => {
    const plan = planBalanced(items, [7, 8, 9, 10, 11], 2, 42);
    for (const item of items) {
      const rows = plan.filter((p) => p.itemId === item);
      expect(rows).toHaveLength(2);
      expect(new Set(rows.map((r) => r.userId)).size).toBe(2);
      expect(rows.map((r) => r.slot).sort()).toEqual([1, 2]);
    }
  });

  it('balances load to within one item', () => {
    const plan = planBalanced(items, [1, 2, 3], 1, 7);
    const counts = [1, 2, 3].map((u) => plan.filter((p) => p.userId === u).length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.reduce((a, b) => a + b)).toBe(items.length);
  });

  it('is reproducible from the seed and changes with it', () => {
    const a = planBalanced(items, [1, 2, 3, 4], 2, 123);
    expect(planBalanced(items, [4, 3, 2, 1], 2, 123)).toEqual(a);
    expect(planBalanced(items, [1, 2, 3, 4], 2, 124)).not.toEqual(a);
  });

  it('numbers each reviewer queue 1..n in item order', () => {
    const plan = planBalanced(items, [1, 2], 1, 9);
    for (const u of [1, 2]) {
      const mine = plan.filter((p) => p.userId === u);
      expect(mine.map((p) => p.queuePosition)).toEqual(mine.map((_, i) => i + 1));
      expect(mine.map((p) => p.itemId)).toEqual([...mine.map((p) => p.itemId)].sort((x, y) => x - y));
    }
  });

  it('randomises display order roughly half and half', () => {
    const plan = planBalanced(
      Array.from({ length: 2000 }, (_, i) => i),
      [1, 2],
      2,
      5,
    );
    const share = plan.filter((p) => p.swapped).length / plan.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
  });

  it('refuses too few reviewers', () => {
    expect(() => planBalanced(items, [1], 2, 1)).toThrow(/at least 2 people/);
  });
});

describe('planFixedSets', () => {
  const groups = [
    [1, 2],
    [3, 4],
    [5, 6],
  ];
  it('deals every item to exactly one group, whose members both judge it', () => {
    const plan = planFixedSets(items, groups, 3);
    for (const item of items) {
      const rows = plan.filter((p) => p.itemId === item);
      expect(rows).toHaveLength(2);
      const group = groups.find((g) => g.includes(rows[0].userId))!;
      expect(rows.map((r) => r.userId).sort()).toEqual([...group].sort());
      expect(rows.map((r) => r.slot)).toEqual([1, 2]);
    }
  });

  it('makes sets whose sizes differ by at most one', () => {
    const plan = planFixedSets(items, groups, 3);
    const sizes = [1, 2, 3].map((s) => new Set(plan.filter((p) => p.set === s).map((p) => p.itemId)).size);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(sizes.reduce((a, b) => a + b)).toBe(items.length);
  });

  it('is reproducible and refuses overlapping or uneven groups', () => {
    expect(planFixedSets(items, groups, 8)).toEqual(planFixedSets(items, groups, 8));
    expect(() =>
      planFixedSets(
        items,
        [
          [1, 2],
          [2, 3],
        ],
        1,
      ),
    ).toThrow(/one group only/);
    expect(() => planFixedSets(items, [[1, 2], [3]], 1)).toThrow(/same number/);
  });
});
