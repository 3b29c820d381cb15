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
    const chosen = [...reviewers]
      .sort((a, b) => load.get(a)! - load.get(b)! || tiebreak.get(a)! - tiebreak.get(b)!)
      .slice(0, perItem);
    chosen.forEach((userId, i) => {
      const position = load.get(userId)! + 1;
      load.set(userId, position);
      out.push({ itemId, userId, slot: i + 1, queuePosition: position, swapped: random() < 0.5 });
    });
  }
  return out;
}
