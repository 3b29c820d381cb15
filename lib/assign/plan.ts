import { mulberry32 } from './random';

export type PlannedAssignment = {
  itemId: number;
  userId: number;
  slot: number;
  queuePosition: number;
  swapped: boolean;
};

/**
 * Gives each item `perItem` distinct reviewers, always choosing among the least-loaded reviewers (ties broken by a
 * seeded draw), so loads differ by at most one. Each reviewer's queue follows item order. The display order
 * (`swapped`) is drawn per (item, reviewer) from the same seed. Same inputs, same plan.
 */
export function planBalanced(itemIds: readonly number[], reviewerIds: readonly number[], perItem: number, seed: number) {
  if (perItem < 1) throw new Error('perItem must be at least 1');
  if (new Set(reviewerIds).size !== reviewerIds.length) throw new Error('reviewers must be distinct');
  if (reviewerIds.length < perItem) {
    throw new Error(`${perItem} reviewers per item need at least ${perItem} people; ${reviewerIds.length} chosen`);
  }
  const random = mulberry32(seed);
  const reviewers = [...reviewerIds].sort((a, b) => a - b);
  const load = new Map(reviewers.map((r) => [r, 0]));
  const out: PlannedAssignment[] = [];
  const tiebreak = new Map<number, number>();
  for (const itemId of itemIds) {
    for (const r of reviewers) tiebreak.set(r, random());
    const chosen = [...reviewers].sort((a, b) => load.get(a)! - load.get(b)! || tiebreak.get(a)! - tiebreak.get(b)!).slice(0, perItem);
    chosen.forEach((userId, i) => {
      const position = load.get(userId)! + 1;
      load.set(userId, position);
      out.push({ itemId, userId, slot: i + 1, queuePosition: position, swapped: random() < 0.5 });
    });
  }
  return out;
}

/**
 * The KMP scheme: items are shuffled with the seed and dealt into as many sets as there are groups, of sizes
 * differing by at most one; every member of a group judges every item of its set. Slots follow the order of
 * the group's members; each reviewer's queue follows item order.
 */
export function planFixedSets(itemIds: readonly number[], groups: readonly (readonly number[])[], seed: number) {
  if (!groups.length) throw new Error('at least one group is needed');
  const size = groups[0].length;
  const everyone = groups.flat();
  if (groups.some((g) => g.length !== size)) throw new Error('every group must have the same number of reviewers');
  if (new Set(everyone).size !== everyone.length) throw new Error('a reviewer can belong to one group only');
  const random = mulberry32(seed);
  const order = [...itemIds];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const setOf = new Map<number, number>();
  const per = Math.floor(order.length / groups.length);
  const extra = order.length % groups.length;
  let k = 0;
  groups.forEach((_, g) => {
    const n = per + (g < extra ? 1 : 0);
    for (let i = 0; i < n; i++) setOf.set(order[k++], g);
  });
  const position = new Map(everyone.map((u) => [u, 0]));
  const out: (PlannedAssignment & { set: number })[] = [];
  for (const itemId of itemIds) {
    const g = setOf.get(itemId)!;
    groups[g].forEach((userId, i) => {
      const p = position.get(userId)! + 1;
      position.set(userId, p);
      out.push({ itemId, userId, slot: i + 1, queuePosition: p, swapped: random() < 0.5, set: g + 1 });
    });
  }
  return out;
}
