/** What mixing a gold item marked after the study opened reads and moves (decision 0041). */
import { stmt, type Db } from '../client';

export type PendingRow = { userId: number; itemId: number; queuePosition: number; groupKey: string | null };

/** Every reviewer's pending assignments in a study, by reviewer and queue order, with their item's group. */
export const pendingQueues = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT a.user_id AS userId, a.item_id AS itemId, a.queue_position AS queuePosition, i.group_key AS groupKey
       FROM assignments a JOIN items i ON i.id = a.item_id
      WHERE a.study_id = ? AND a.state = 'pending'
      ORDER BY a.user_id, a.queue_position`,
  ).all(studyId) as PendingRow[];

/** Per reviewer of the study: their assignments (any state), how many of them are on gold items now, and whether they hold `itemId`. */
export const reviewerGoldCounts = (db: Db, studyId: number, itemId: number) =>
  stmt(
    db,
    `SELECT a.user_id AS userId, count(*) AS total,
            sum(EXISTS (SELECT 1 FROM gold_current g WHERE g.item_id = a.item_id AND a.item_id <> @itemId)) AS gold,
            max(a.item_id = @itemId) AS holds
       FROM assignments a WHERE a.study_id = @studyId GROUP BY a.user_id`,
  ).all({ studyId, itemId }) as { userId: number; total: number; gold: number; holds: 0 | 1 }[];

/** Makes room at `from` in a reviewer's pending queue: their pending assignments from there on move one place back. */
export const shiftPendingFrom = (db: Db, studyId: number, userId: number, from: number) =>
  stmt(
    db,
    `UPDATE assignments SET queue_position = queue_position + 1
      WHERE study_id = ? AND user_id = ? AND state = 'pending' AND queue_position >= ?`,
  ).run(studyId, userId, from);
