import 'server-only';
import type { Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { planBalanced } from '@/lib/assign/plan';
import { invalid } from '../errors';

/*
 * What opening a hybrid plan's review queue does the same way for every kind of study: the chosen people, checked,
 * and the chosen items appended to their queues. Which items go to people is the queue's (`hybrid-queue.ts` for the
 * hybrid plan of every kind, `review-queue-active.ts` for the active order).
 */

/** The ids of the chosen people: each an active account that can sign in. */
export function activeReviewers(db: Db, usernames: readonly string[]): number[] {
  return usernames.map((u) => {
    const user = usersQ.findUserByUsername(db, u);
    if (!user || !user.active || !user.passwordHash) throw invalid(`No active account named "${u}".`, { usernames: 'Unknown account' });
    return user.id;
  });
}

/**
 * Appends the items to the people's queues, each item to one person, balanced and in a seeded order, after what
 * they already have; makes them members of the study. Call inside the transaction that chose the items.
 */
export function appendToQueues(
  db: Db,
  studyId: number,
  seed: number,
  itemIds: number[],
  reviewers: number[],
  usernames: readonly string[],
): { username: string; items: number }[] {
  const plannedRows = planBalanced(itemIds, reviewers, 1, seed);
  const offset = new Map(reviewers.map((u) => [u, assignmentsQ.lastQueuePosition(db, studyId, u)]));
  for (const p of plannedRows) assignmentsQ.insertAssignment(db, { ...p, studyId, queuePosition: offset.get(p.userId)! + p.queuePosition });
  studiesQ.addMembers(db, studyId, reviewers);
  return usernames.map((username, k) => ({ username, items: plannedRows.filter((p) => p.userId === reviewers[k]).length }));
}
