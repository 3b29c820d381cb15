import { describe, expect, it } from 'vitest';
import { GOLD_RATE_MAX_PCT, goldCount, mixGold } from './gold';
import { planBalanced } from './plan';

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('mixing gold items into queues', () => {
  const regular = range(1, 60);
  const gold = range(101, 12);
  const plan = planBalanced(regular, [7, 8, 9], 2, 5);

  it('makes the asked share of each queue gold, numbered 1…n with the rest, each gold item once per reviewer', () => {
    const mixed = mixGold(plan, gold, 20, 5);
    for (const userId of [7, 8, 9]) {
      const mine = mixed.filter((p) => p.userId === userId).sort((a, b) => a.queuePosition - b.queuePosition);
      const n = plan.filter((p) => p.userId === userId).length;
      const g = mine.filter((p) => p.itemId > 100);
      expect(n).toBe(40);
      // 40 regular items at 20 %: 10 gold, so 10 / 50 = 20 %.
      expect(g).toHaveLength(10);
      expect(new Set(g.map((p) => p.itemId)).size).toBe(10);
      expect(mine.map((p) => p.queuePosition)).toEqual(range(1, 50));
      // The regular items keep their order among themselves.
      const order = plan.filter((p) => p.userId === userId).sort((a, b) => a.queuePosition - b.queuePosition).map((p) => p.itemId);
      expect(mine.filter((p) => p.itemId <= 100).map((p) => p.itemId)).toEqual(order);
      // Not all at the end or the start: gold is spread through the queue.
      const places = g.map((p) => p.queuePosition);
      expect(Math.min(...places)).toBeLessThan(25);
      expect(Math.max(...places)).toBeGreaterThan(25);
    }
    // Slots of a gold item count its reviewers: distinct, from 1.
    for (const id of gold) {
      const slots = mixed.filter((p) => p.itemId === id).map((p) => p.slot).sort();
      expect(slots).toEqual(range(1, slots.length));
    }
  });

  it('is the same for the same seed, and differs for another', () => {
    expect(mixGold(plan, gold, 20, 5)).toEqual(mixGold(plan, gold, 20, 5));
    expect(mixGold(plan, gold, 20, 6)).not.toEqual(mixGold(plan, gold, 20, 5));
  });

  it('leaves the plan alone at rate 0 or without gold, and never gives more gold than there is', () => {
    expect(mixGold(plan, gold, 0, 5)).toEqual(plan);
    expect(mixGold(plan, [], 30, 5)).toEqual(plan);
    const few = mixGold(plan, [101, 102], GOLD_RATE_MAX_PCT, 5);
    for (const userId of [7, 8, 9]) expect(few.filter((p) => p.userId === userId && p.itemId > 100)).toHaveLength(2);
    expect(goldCount(40, 50, 100)).toBe(40);
    expect(goldCount(0, 50, 100)).toBe(0);
  });

  it('skips gold items a reviewer already holds and continues their slots', () => {
    const taken = new Map([[101, { users: new Set([7]), maxSlot: 1 }]]);
    const mixed = mixGold(plan, [101], 50, 5, () => null, taken);
    expect(mixed.filter((p) => p.itemId === 101).map((p) => [p.userId, p.slot])).toEqual([
      [8, 2],
      [9, 3],
    ]);
  });

  it('puts gold only between groups, so a group’s items stay together', () => {
    const groupOf = (id: number) => (id <= 100 ? `g${Math.ceil(id / 4)}` : null);
    const mixed = mixGold(plan, gold, 30, 5, groupOf);
    let between = 0;
    for (const userId of [7, 8, 9]) {
      const mine = mixed.filter((p) => p.userId === userId).sort((a, b) => a.queuePosition - b.queuePosition);
      mine.forEach((p, k) => {
        if (p.itemId <= 100) return;
        const before = mine.slice(0, k).reverse().find((x) => x.itemId <= 100);
        const after = mine.slice(k + 1).find((x) => x.itemId <= 100);
        if (!before || !after) return;
        between++;
        expect(groupOf(before.itemId)).not.toBe(groupOf(after.itemId));
      });
    }
    expect(between).toBeGreaterThan(5);
  });
});
