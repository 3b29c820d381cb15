import type { Db } from '../client';

/*
 * Annotators excluded from a study (`annotator_exclusions`, decision 0029) and the SQL condition the readers of the
 * reviewers' labels (`./packs.ts`) apply, written once.
 */

/**
 * "The row's user is not excluded from the study": a condition on `userColumn` that takes the study id as its one
 * parameter, to be bound after the statement's other parameters (or names it: `studyParam`, e.g. `@studyId` or a
 * column of the outer row, qualified by its alias — an unqualified `study_id` would name the subquery's own column).
 * SQLite evaluates an uncorrelated subquery once per statement.
 */
export const NOT_EXCLUDED = (userColumn: string, studyParam = '?') =>
  `${userColumn} NOT IN (SELECT user_id FROM annotator_exclusions WHERE study_id = ${studyParam})`;

export type ExclusionRow = { userId: number; username: string; excludedBy: string; createdAt: number };

/** The study's excluded annotators, by username. */
export const exclusions = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT e.user_id AS userId, u.username, b.username AS excludedBy, e.created_at AS createdAt
         FROM annotator_exclusions e JOIN users u ON u.id = e.user_id JOIN users b ON b.id = e.excluded_by
        WHERE e.study_id = ? ORDER BY u.username`,
    )
    .all(studyId) as ExclusionRow[];

/** Excludes an annotator; false when they already were. */
export const insertExclusion = (db: Db, studyId: number, userId: number, excludedBy: number) =>
  db.$client
    .prepare('INSERT INTO annotator_exclusions (study_id, user_id, excluded_by) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .run(studyId, userId, excludedBy).changes > 0;

/** Includes an annotator again; false when they were not excluded. */
export const deleteExclusion = (db: Db, studyId: number, userId: number) =>
  db.$client.prepare('DELETE FROM annotator_exclusions WHERE study_id = ? AND user_id = ?').run(studyId, userId).changes > 0;

/**
 * The labels each excluded annotator has in the study and the readers leave out: the labels of their counting
 * annotations (the newest revision of each submitted assignment), one packed character per label.
 */
export const excludedLabelCounts = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT e.user_id AS userId, u.username,
              (SELECT coalesce(sum(length(p.packed)), 0)
                 FROM assignments a
                 JOIN annotation_packs p ON p.study_id = a.study_id AND p.item_id = a.item_id AND p.slot = a.slot
                WHERE a.study_id = e.study_id AND a.user_id = e.user_id AND a.state = 'submitted'
                  AND p.revision = (SELECT max(q.revision) FROM annotation_packs q
                                     WHERE q.study_id = a.study_id AND q.item_id = a.item_id AND q.slot = a.slot)) AS labels
         FROM annotator_exclusions e JOIN users u ON u.id = e.user_id
        WHERE e.study_id = ? ORDER BY u.username`,
    )
    .all(studyId) as { userId: number; username: string; labels: number }[];

/** Whether the user holds an assignment (any state) in the study: only such a user has labels to exclude. */
export const hasAssignmentIn = (db: Db, studyId: number, userId: number) =>
  !!db.$client.prepare('SELECT 1 FROM assignments WHERE study_id = ? AND user_id = ? LIMIT 1').pluck().get(studyId, userId);
