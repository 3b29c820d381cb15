import { stmt, type Db } from '../client';

export type RemarkRow = {
  assignmentId: number;
  flagReason: string | null;
  flaggedAt: number | null;
  comment: string | null;
  updatedAt: number;
};

const COLUMNS = 'assignment_id AS assignmentId, flag_reason AS flagReason, flagged_at AS flaggedAt, comment, updated_at AS updatedAt';

export const findRemark = (db: Db, assignmentId: number) =>
  stmt(db, `SELECT ${COLUMNS} FROM assignment_remarks WHERE assignment_id = ?`).get(assignmentId) as RemarkRow | undefined;

/** Writes the remark of an assignment; a row with neither flag nor comment left is removed. */
export function putRemark(db: Db, r: RemarkRow) {
  if (r.flagReason === null && r.comment === null) {
    stmt(db, 'DELETE FROM assignment_remarks WHERE assignment_id = ?').run(r.assignmentId);
    return;
  }
  stmt(
    db,
    `INSERT INTO assignment_remarks (assignment_id, flag_reason, flagged_at, comment, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(assignment_id) DO UPDATE SET flag_reason = excluded.flag_reason, flagged_at = excluded.flagged_at,
         comment = excluded.comment, updated_at = excluded.updated_at`,
  ).run(r.assignmentId, r.flagReason, r.flaggedAt, r.comment, r.updatedAt);
}

export type FlaggedRow = {
  assignmentId: number;
  itemId: number;
  position: number;
  externalId: string;
  username: string;
  displayName: string;
  reason: string;
  flaggedAt: number;
  comment: string | null;
  state: 'pending' | 'submitted';
};

/** The flagged assignments of a study, newest flag first. */
export const flaggedInStudy = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT r.assignment_id AS assignmentId, a.item_id AS itemId, i.position, i.external_id AS externalId, u.username,
            u.display_name AS displayName, r.flag_reason AS reason, r.flagged_at AS flaggedAt, r.comment, a.state
       FROM assignment_remarks r
       JOIN assignments a ON a.id = r.assignment_id
       JOIN items i ON i.id = a.item_id
       JOIN users u ON u.id = a.user_id
      WHERE a.study_id = ? AND r.flag_reason IS NOT NULL
      ORDER BY r.flagged_at DESC, r.assignment_id DESC`,
  ).all(studyId) as FlaggedRow[];

/** The items of a study that at least one reviewer has flagged (their flag still set). */
export const flaggedItemIds = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT DISTINCT a.item_id FROM assignment_remarks r JOIN assignments a ON a.id = r.assignment_id
      WHERE a.study_id = ? AND r.flag_reason IS NOT NULL`,
  )
    .pluck()
    .all(studyId) as number[];

export type ItemRemarkRow = { slot: number; flagReason: string | null; flaggedAt: number | null; comment: string | null };

/** Each reviewer's flag and comment on one item, by assignment slot (only reviewers who left one). */
export const remarksOfItem = (db: Db, itemId: number) =>
  stmt(
    db,
    `SELECT a.slot, r.flag_reason AS flagReason, r.flagged_at AS flaggedAt, r.comment
       FROM assignment_remarks r JOIN assignments a ON a.id = r.assignment_id
      WHERE a.item_id = ? ORDER BY a.slot`,
  ).all(itemId) as ItemRemarkRow[];
