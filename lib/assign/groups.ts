import type { PlannedAssignment } from './plan';
import { mulberry32 } from './random';

/*
 * Plans for rubric studies, whose items come in groups (the replies of several tutors to one dialogue). A group
 * goes to its reviewers as a whole, so a reviewer reads the dialogue once and labels its replies one after
 * another; the per-item guarantees of plan.ts hold: every item gets exactly `perItem` distinct reviewers, counting
 * those it already has (imported prior annotations), and nobody gets an item twice.
 */

/** One group of items and, per item, the reviewers it already has (imported prior annotations). */
export type PlanGroup = { items: readonly { id: number; taken: readonly number[] }[] };

/** A seed of its own for each reviewer, derived from the study's seed and the reviewer's id. */
export function reviewerSeed(seed: number, userId: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(userId + 0x27d4eb2f, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

function shuffle<T>(values: T[], random: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

function checkReviewers(reviewerIds: readonly number[], perItem: number) {
  if (perItem < 1) throw new Error('perItem must be at least 1');
  if (new Set(reviewerIds).size !== reviewerIds.length) throw new Error('reviewers must be distinct');
}

/**
 * Fills each item's missing slots from `candidates` (in order of preference), skipping anyone the item already
 * has. Throws when the candidates cannot fill an item.
 */
function fillGroup(group: PlanGroup, candidates: readonly number[], perItem: number, out: PlannedAssignment[], load: Map<number, number>) {
  for (const item of group.items) {
    const taken = new Set(item.taken);
    const need = perItem - taken.size;
    if (need < 0) throw new Error(`item ${item.id} already has ${taken.size} reviewers; ${perItem} are planned`);
    const chosen = candidates.filter((u) => !taken.has(u)).slice(0, need);
    if (chosen.length < need) {
      throw new Error(`item ${item.id} needs ${need} more reviewer(s) besides those it has, but only ${chosen.length} can take it`);
    }
    chosen.forEach((userId, i) => {
      load.set(userId, (load.get(userId) ?? 0) + 1);
      out.push({ itemId: item.id, userId, slot: taken.size + i + 1, queuePosition: 0, swapped: false });
    });
  }
}

/**
 * Balanced: each group goes to the least-loaded reviewers (load counted in items, ties broken by a seeded draw),
 * every item of the group to the same ones where it can. Queue positions are left at 0 for `orderQueuesByGroup`.
 */
export function planGroupsBalanced(groups: readonly PlanGroup[], reviewerIds: readonly number[], perItem: number, seed: number) {
  checkReviewers(reviewerIds, perItem);
  const random = mulberry32(seed);
  const reviewers = [...reviewerIds].sort((a, b) => a - b);
  const load = new Map(reviewers.map((r) => [r, 0]));
  const tiebreak = new Map<number, number>();
  const out: PlannedAssignment[] = [];
  for (const group of groups) {
    for (const r of reviewers) tiebreak.set(r, random());
    const candidates = [...reviewers].sort((a, b) => load.get(a)! - load.get(b)! || tiebreak.get(a)! - tiebreak.get(b)!);
    fillGroup(group, candidates, perItem, out, load);
  }
  return out;
}

/**
 * The KMP scheme over groups: the groups are shuffled with the seed and each is dealt to the set of reviewers with
 * the fewest items so far (the lowest set on a tie); every member of that set reviews it. Set sizes in items differ
 * by at most the largest group.
 */
export function planGroupsFixedSets(groups: readonly PlanGroup[], sets: readonly (readonly number[])[], perItem: number, seed: number) {
  if (!sets.length) throw new Error('at least one set of reviewers is needed');
  const everyone = sets.flat();
  checkReviewers(everyone, perItem);
  const random = mulberry32(seed);
  const order = shuffle([...groups.keys()], random);
  const size = sets.map(() => 0);
  const load = new Map<number, number>();
  const out: PlannedAssignment[] = [];
  for (const g of order) {
    const s = size.indexOf(Math.min(...size));
    fillGroup(groups[g], sets[s], perItem, out, load);
    size[s] += groups[g].items.length;
  }
  return out;
}

/**
 * Numbers each reviewer's queue so that the items of a group come one after another: the reviewer's groups in a
 * random order of their own, and the items inside each group in a random order of their own, both drawn from
 * `reviewerSeed(seed, reviewer)`. An item without a group (`groupOf` null) is a group by itself. Positions continue
 * after `startAfter(reviewer)` (0 by default). Same inputs, same order.
 */
export function orderQueuesByGroup(
  plan: readonly PlannedAssignment[],
  groupOf: (itemId: number) => string | null,
  seed: number,
  startAfter: (userId: number) => number = () => 0,
): PlannedAssignment[] {
  const byUser = new Map<number, PlannedAssignment[]>();
  for (const p of plan) {
    const mine = byUser.get(p.userId);
    if (mine) mine.push(p);
    else byUser.set(p.userId, [p]);
  }
  const out: PlannedAssignment[] = [];
  for (const userId of [...byUser.keys()].sort((a, b) => a - b)) {
    const random = mulberry32(reviewerSeed(seed, userId));
    const groups = new Map<string, PlannedAssignment[]>();
    // Sorted first, so the draw depends on the items, not on the order the plan listed them in.
    for (const p of byUser.get(userId)!.sort((a, b) => a.itemId - b.itemId)) {
      const key = groupOf(p.itemId);
      const k = key === null ? `\u0000${p.itemId}` : `g${key}`;
      const members = groups.get(k);
      if (members) members.push(p);
      else groups.set(k, [p]);
    }
    let position = startAfter(userId);
    for (const members of shuffle([...groups.values()], random)) {
      for (const p of shuffle(members, random)) out.push({ ...p, queuePosition: ++position });
    }
  }
  return out;
}
