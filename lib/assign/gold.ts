import { reviewerSeed } from './groups';
import type { PlannedAssignment } from './plan';
import { mulberry32 } from './random';

/** The most a lead may set: a queue of more gold than work would measure reviewers rather than items. */
export const GOLD_RATE_MAX_PCT = 50;

/** What gold items already have (imported prior annotations): who holds one, and its highest slot. */
export type GoldTaken = ReadonlyMap<number, { users: ReadonlySet<number>; maxSlot: number }>;

/** How many gold items a queue of `regular` items gets so that `ratePct` % of the whole is gold: g / (n + g) ≈ rate. */
export const goldCount = (regular: number, ratePct: number, available: number) =>
  ratePct <= 0 || regular === 0 ? 0 : Math.min(available, Math.round((regular * ratePct) / (100 - ratePct)));

/**
 * Mixes gold items into each reviewer's planned queue (docs/decisions/0030). For each reviewer, from a draw of their
 * own (the study's seed and their id, and a stream apart from the queue's order): which gold items (distinct, none
 * they already hold), and where each goes, between two items of different groups (`groupOf`; null is a group by
 * itself) so a rubric reviewer still gets a dialogue's replies one after another. The queue is then numbered again
 * from where it started, so a gold item takes a place like any other; gold slots continue after what the item holds.
 * Same inputs, same queues.
 */
export function mixGold(
  plan: readonly PlannedAssignment[],
  goldItemIds: readonly number[],
  ratePct: number,
  seed: number,
  groupOf: (itemId: number) => string | null = () => null,
  taken: GoldTaken = new Map(),
): PlannedAssignment[] {
  if (ratePct <= 0 || !goldItemIds.length) return [...plan];
  const byUser = new Map<number, PlannedAssignment[]>();
  for (const p of plan) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
  const slots = new Map(goldItemIds.map((id) => [id, taken.get(id)?.maxSlot ?? 0]));
  const gold = [...goldItemIds].sort((a, b) => a - b);
  const out: PlannedAssignment[] = [];
  for (const userId of [...byUser.keys()].sort((a, b) => a - b)) {
    const queue = byUser.get(userId)!.sort((a, b) => a.queuePosition - b.queuePosition);
    // A stream of its own (the seed's bits turned), so mixing never changes the draws that ordered the queue.
    const random = mulberry32(reviewerSeed(seed ^ 0x60d1, userId));
    const mine = gold.filter((id) => !taken.get(id)?.users.has(userId));
    for (let i = mine.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [mine[i], mine[j]] = [mine[j], mine[i]];
    }
    const chosen = mine.slice(0, goldCount(queue.length, ratePct, mine.length));
    // Gap k is before queue[k]; the first and last gaps are always open, the others only between groups.
    const gaps: number[] = [];
    for (let k = 0; k <= queue.length; k++) {
      const before = queue[k - 1];
      const after = queue[k];
      const g = (p: PlannedAssignment) => groupOf(p.itemId) ?? `\u0000${p.itemId}`;
      if (!before || !after || g(before) !== g(after)) gaps.push(k);
    }
    const into = new Map<number, number[]>();
    for (const itemId of chosen) {
      const k = gaps[Math.floor(random() * gaps.length)];
      into.set(k, [...(into.get(k) ?? []), itemId]);
    }
    let position = queue[0].queuePosition - 1;
    for (let k = 0; k <= queue.length; k++) {
      for (const itemId of into.get(k) ?? []) {
        const slot = slots.get(itemId)! + 1;
        slots.set(itemId, slot);
        out.push({ itemId, userId, slot, queuePosition: ++position, swapped: random() < 0.5 });
      }
      if (k < queue.length) out.push({ ...queue[k], queuePosition: ++position });
    }
  }
  return out;
}
