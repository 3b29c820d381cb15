import { describe, expect, it } from 'vitest';
import { orderQueuesByGroup, planGroupsBalanced, planGroupsFixedSets, reviewerSeed, type PlanGroup } from './groups';
import type { PlannedAssignment } from './plan';

// 40 dialogues of 1 to 9 replies (item ids numbered through), some with a prior reviewer (user 99).
const groups: PlanGroup[] = [];
const groupOfItem = new Map<number, string>();
let next = 1;
for (let g = 0; g < 40; g++) {
  const items = [];
  for (let k = 0; k < 1 + ((g * 7) % 9); k++) {
    items.push({ id: next, taken: g % 5 === 0 ? [99] : [] });
    groupOfItem.set(next, `d${g}`);
    next++;
  }
  groups.push({ items });
}
const allItems = groups.flatMap((g) => g.items);

function checkPerItem(plan: PlannedAssignment[], perItem: number) {
  for (const item of allItems) {
    const rows = plan.filter((p) => p.itemId === item.id);
    const reviewers = [...item.taken, ...rows.map((r) => r.userId)];
    expect(reviewers).toHaveLength(perItem);
    expect(new Set(reviewers).size).toBe(perItem);
    expect(rows.map((r) => r.slot).sort()).toEqual(rows.map((_, i) => item.taken.length + i + 1));
  }
}

/** Per reviewer, the groups of their queue in order, with each group's positions. */
function runs(plan: PlannedAssignment[], userId: number) {
  const mine = plan.filter((p) => p.userId === userId).sort((a, b) => a.queuePosition - b.queuePosition);
  return mine.map((p) => groupOfItem.get(p.itemId) ?? `solo${p.itemId}`);
}

describe('planGroupsBalanced', () => {
  it('gives every item exactly the planned number of distinct reviewers, counting prior ones', () => {
    checkPerItem(planGroupsBalanced(groups, [1, 2, 3, 4], 2, 11), 2);
    checkPerItem(planGroupsBalanced(groups, [1, 2, 3], 3, 11), 3);
  });

  it('keeps a group with the same reviewers and balances load to within one group', () => {
    const plan = planGroupsBalanced(groups, [1, 2, 3, 4], 2, 5);
    groups.forEach((g) => {
      if (g.items.some((i) => i.taken.length)) return;
      const sets = g.items.map((i) =>
        plan
          .filter((p) => p.itemId === i.id)
          .map((p) => p.userId)
          .sort()
          .join(','),
      );
      expect(new Set(sets).size).toBe(1);
    });
    const loads = [1, 2, 3, 4].map((u) => plan.filter((p) => p.userId === u).length);
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(9);
  });

  it('is reproducible and refuses when the chosen people cannot fill an item', () => {
    expect(planGroupsBalanced(groups, [4, 3, 2, 1], 2, 9)).toEqual(planGroupsBalanced(groups, [1, 2, 3, 4], 2, 9));
    expect(() => planGroupsBalanced(groups, [1, 99], 3, 1)).toThrow(/needs 2 more reviewer\(s\)/);
  });
});

describe('planGroupsFixedSets', () => {
  it('gives a group to one set, whose members review all of it', () => {
    const sets = [
      [1, 2],
      [3, 4],
    ];
    const plan = planGroupsFixedSets(groups, sets, 2, 3);
    checkPerItem(plan, 2);
    for (const g of groups) {
      const users = new Set(g.items.flatMap((i) => plan.filter((p) => p.itemId === i.id).map((p) => p.userId)));
      expect(sets.some((s) => [...users].every((u) => s.includes(u)))).toBe(true);
    }
  });
});

describe('orderQueuesByGroup', () => {
  const plan = planGroupsBalanced(groups, [1, 2, 3], 2, 21);
  const ordered = orderQueuesByGroup(plan, (id) => groupOfItem.get(id) ?? null, 21);

  it('keeps every assignment and numbers each queue 1..n', () => {
    expect(ordered).toHaveLength(plan.length);
    for (const u of [1, 2, 3]) {
      const positions = ordered
        .filter((p) => p.userId === u)
        .map((p) => p.queuePosition)
        .sort((a, b) => a - b);
      expect(positions).toEqual(positions.map((_, i) => i + 1));
    }
    const key = (p: PlannedAssignment) => `${p.itemId}/${p.userId}/${p.slot}`;
    expect(ordered.map(key).sort()).toEqual(plan.map(key).sort());
  });

  it("puts a group's replies one after another in every queue", () => {
    for (const u of [1, 2, 3]) {
      const seq = runs(ordered, u);
      const closed = new Set<string>();
      seq.forEach((g, i) => {
        expect(closed.has(g)).toBe(false);
        if (seq[i + 1] !== g) closed.add(g);
      });
    }
  });

  it('gives each reviewer an order of their own, fixed by the seed', () => {
    const fresh = groups.map((g) => ({ items: g.items.map((i) => ({ id: i.id, taken: [] })) }));
    const two = planGroupsBalanced(fresh, [1, 2], 2, 4); // both review everything
    const o = orderQueuesByGroup(two, (id) => groupOfItem.get(id) ?? null, 4);
    const itemsOf = (u: number) =>
      o
        .filter((p) => p.userId === u)
        .sort((a, b) => a.queuePosition - b.queuePosition)
        .map((p) => p.itemId);
    expect(itemsOf(1)).not.toEqual(itemsOf(2));
    expect(new Set(runs(o, 1))).toEqual(new Set(runs(o, 2)));
    // Neither follows item order (groups shuffled), and the same seed gives the same order again.
    expect(itemsOf(1)).not.toEqual([...itemsOf(1)].sort((a, b) => a - b));
    expect(orderQueuesByGroup([...two].reverse(), (id) => groupOfItem.get(id) ?? null, 4)).toEqual(
      expect.arrayContaining(o.map((p) => expect.objectContaining({ itemId: p.itemId, userId: p.userId, queuePosition: p.queuePosition }))),
    );
    expect(orderQueuesByGroup(two, (id) => groupOfItem.get(id) ?? null, 5)).not.toEqual(o);
    expect(reviewerSeed(4, 1)).not.toBe(reviewerSeed(4, 2));
  });

  it('treats items without a group as groups of one, and continues after earlier positions', () => {
    const loose: PlannedAssignment[] = [10, 11, 12].map((itemId) => ({ itemId, userId: 7, slot: 1, queuePosition: 0, swapped: false }));
    const o = orderQueuesByGroup(
      loose,
      () => null,
      1,
      () => 40,
    );
    expect(o.map((p) => p.queuePosition).sort()).toEqual([41, 42, 43]);
  });

  it('shuffles groups fairly: each group comes first about equally often over many seeds', () => {
    const small: PlanGroup[] = [0, 1, 2, 3].map((g) => ({
      items: [
        { id: g * 2 + 1, taken: [] },
        { id: g * 2 + 2, taken: [] },
      ],
    }));
    const firstCounts = [0, 0, 0, 0];
    for (let seed = 1; seed <= 4000; seed++) {
      const o = orderQueuesByGroup(planGroupsBalanced(small, [1], 1, seed), (id) => `g${Math.floor((id - 1) / 2)}`, seed);
      const first = o.find((p) => p.queuePosition === 1)!;
      firstCounts[Math.floor((first.itemId - 1) / 2)]++;
    }
    for (const c of firstCounts) expect(c / 4000).toBeGreaterThan(0.2);
  });
});
