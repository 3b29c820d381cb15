import 'server-only';
import type { Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as goldQ from '@/db/queries/gold';
import * as lateQ from '@/db/queries/gold-late';
import type { StudyRow } from '@/db/queries/studies';
import { goldCount } from '@/lib/assign/gold';
import { reviewerSeed } from '@/lib/assign/groups';
import { mulberry32 } from '@/lib/assign/random';

/*
 * Gold marked after the study opened (decision 0041). At opening, `withGold` mixes gold into every planned queue at
 * the study's rate; an item a lead marks later goes into the queues still being worked through: each reviewer with
 * pending work who does not hold the item gets it once, while the gold they hold stays under what the rate allows
 * for their regular items (the same `goldCount` as at opening), at a place drawn among their pending items — never
 * before the one they have now, and in a rubric study only between two groups — and the pending items after it move
 * one place back. The new assignment is an ordinary pending one (its own slot, display order and queue place), so
 * nothing a reviewer receives tells it apart.
 */

/** A draw of its own per (study, item, reviewer): the same marking makes the same queues. */
const streamOf = (study: StudyRow, itemId: number, userId: number) =>
  mulberry32(reviewerSeed((study.seed ^ 0x1a7e) + Math.imul(itemId, 0x9e3779b1), userId));

/**
 * Mixes a newly marked gold item into the pending queues of an open study (inside the marking's transaction, after
 * its gold labels are written). Returns the reviewers who got it.
 */
export function mixMarkedGold(db: Db, study: StudyRow, itemId: number): number[] {
  if (study.status !== 'open') return [];
  const { ratePct } = goldQ.goldSettings(db, study.id);
  if (ratePct <= 0) return [];
  const counts = new Map(lateQ.reviewerGoldCounts(db, study.id, itemId).map((c) => [c.userId, c]));
  const queues = new Map<number, lateQ.PendingRow[]>();
  for (const p of lateQ.pendingQueues(db, study.id)) queues.set(p.userId, [...(queues.get(p.userId) ?? []), p]);
  const given: number[] = [];
  for (const [userId, pending] of [...queues].sort((a, b) => a[0] - b[0])) {
    const c = counts.get(userId);
    if (!c || c.holds) continue;
    if (c.gold >= goldCount(c.total - c.gold, ratePct, Number.MAX_SAFE_INTEGER)) continue;
    // Gap k is before pending[k] (k = length: at the end); gap 0 would put it before the item the reviewer has now.
    const group = (p: lateQ.PendingRow) => p.groupKey ?? `\u0000${p.itemId}`;
    const gaps: number[] = [];
    for (let k = 1; k <= pending.length; k++) if (k === pending.length || group(pending[k - 1]) !== group(pending[k])) gaps.push(k);
    const random = streamOf(study, itemId, userId);
    const k = gaps[Math.floor(random() * gaps.length)];
    let queuePosition: number;
    if (k < pending.length) {
      queuePosition = pending[k].queuePosition;
      lateQ.shiftPendingFrom(db, study.id, userId, queuePosition);
    } else queuePosition = assignmentsQ.lastQueuePosition(db, study.id, userId) + 1;
    assignmentsQ.insertAssignment(db, {
      studyId: study.id,
      itemId,
      userId,
      slot: assignmentsQ.nextSlotOfItem(db, itemId),
      queuePosition,
      swapped: random() < 0.5,
    });
    given.push(userId);
  }
  return given;
}
