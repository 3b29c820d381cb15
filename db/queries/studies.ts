import { and, asc, eq, sql } from 'drizzle-orm';
import { preparedQuery, stmt, type Db } from '../client';
import { items, studies, studyMembers, users } from '../schema';

export type StudyRow = typeof studies.$inferSelect;

export const findStudy = (db: Db, id: number) =>
  preparedQuery(db, 'findStudy', () =>
    db
      .select()
      .from(studies)
      .where(eq(studies.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });

export const listStudies = (db: Db) => db.select().from(studies).orderBy(asc(studies.id)).all();

export const insertStudy = (db: Db, values: typeof studies.$inferInsert) => db.insert(studies).values(values).returning().get();

export const updateStudy = (db: Db, id: number, values: Partial<typeof studies.$inferInsert>) =>
  db.update(studies).set(values).where(eq(studies.id, id)).returning().get();

export const isMember = (db: Db, studyId: number, userId: number) =>
  !!preparedQuery(db, 'isMember', () =>
    db
      .select({ one: sql`1` })
      .from(studyMembers)
      .where(and(eq(studyMembers.studyId, sql.placeholder('studyId')), eq(studyMembers.userId, sql.placeholder('userId'))))
      .prepare(),
  ).get({ studyId, userId });

export const listMembers = (db: Db, studyId: number) =>
  db
    .select({ userId: users.id, username: users.username, displayName: users.displayName, setIndex: studyMembers.setIndex })
    .from(studyMembers)
    .innerJoin(users, eq(users.id, studyMembers.userId))
    .where(eq(studyMembers.studyId, studyId))
    .orderBy(asc(studyMembers.setIndex), asc(users.username))
    .all();

export function replaceMembers(db: Db, studyId: number, members: { userId: number; setIndex: number | null }[]) {
  db.delete(studyMembers).where(eq(studyMembers.studyId, studyId)).run();
  if (members.length)
    db.insert(studyMembers)
      .values(members.map((m) => ({ studyId, ...m })))
      .run();
}

/** Makes each user a member of the study, leaving those who already are (and their set) as they are. */
export function addMembers(db: Db, studyId: number, userIds: readonly number[]) {
  const add = stmt(db, 'INSERT OR IGNORE INTO study_members (study_id, user_id) VALUES (?, ?)');
  for (const userId of userIds) add.run(studyId, userId);
}

export const countItems = (db: Db, studyId: number) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(items)
    .where(eq(items.studyId, studyId))
    .get()!.n;

/** Studies where the user has assignments or is named adjudicator, with their own progress. */
export const listStudiesForUser = (db: Db, userId: number) =>
  db.$client
    .prepare(
      `SELECT s.id, s.kind, s.name, s.status,
              count(a.id) AS assigned,
              coalesce(sum(a.state = 'submitted'), 0) AS submitted,
              s.adjudicator_id = @userId AS isAdjudicator
         FROM studies s
         LEFT JOIN assignments a ON a.study_id = s.id AND a.user_id = @userId
        WHERE s.status != 'draft'
          AND (s.adjudicator_id = @userId OR EXISTS (SELECT 1 FROM study_members m WHERE m.study_id = s.id AND m.user_id = @userId))
        GROUP BY s.id
        ORDER BY s.status = 'closed', s.id DESC`,
    )
    .all({ userId }) as {
    id: number;
    kind: StudyRow['kind'];
    name: string;
    status: StudyRow['status'];
    assigned: number;
    submitted: number;
    isAdjudicator: 0 | 1;
  }[];

/** Per study: items, assignments and submitted assignments (from the counts the assignments triggers keep). */
export const studyProgress = (db: Db) =>
  stmt(
    db,
    `SELECT s.id,
            (SELECT count(*) FROM items i WHERE i.study_id = s.id) AS items,
            coalesce((SELECT sum(q.total) FROM queue_counts q WHERE q.study_id = s.id), 0) AS assigned,
            coalesce((SELECT sum(q.submitted) FROM queue_counts q WHERE q.study_id = s.id), 0) AS submitted
       FROM studies s`,
  ).all() as { id: number; items: number; assigned: number; submitted: number }[];

/** Adds the next version of a study's guidelines; returns its number. */
export const insertGuidelineVersion = (db: Db, studyId: number, guidelines: string, createdBy: number | null) =>
  stmt(
    db,
    `INSERT INTO study_guideline_versions (study_id, version, guidelines, created_by)
     SELECT ?, coalesce(max(version), 0) + 1, ?, ? FROM study_guideline_versions WHERE study_id = ?
     RETURNING version`,
  )
    .pluck()
    .get(studyId, guidelines, createdBy, studyId) as number;

/** Every version of a study's guidelines, newest first, with who wrote it. */
export const listGuidelineVersions = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT v.version, v.guidelines, v.created_at AS createdAt, u.username AS author
       FROM study_guideline_versions v LEFT JOIN users u ON u.id = v.created_by
      WHERE v.study_id = ? ORDER BY v.version DESC`,
  ).all(studyId) as { version: number; guidelines: string; createdAt: number; author: string | null }[];

/** A study member's set (fixed-sets studies), or undefined when the user is not a member. */
export const memberSet = (db: Db, studyId: number, userId: number) =>
  stmt(db, 'SELECT set_index AS setIndex FROM study_members WHERE study_id = ? AND user_id = ?').get(studyId, userId) as
    { setIndex: number | null } | undefined;

export const insertMember = (db: Db, studyId: number, userId: number, setIndex: number | null) =>
  stmt(db, 'INSERT INTO study_members (study_id, user_id, set_index) VALUES (?, ?, ?)').run(studyId, userId, setIndex);

/** The newest version number of a study's guidelines (1 for a study never edited). */
export const latestGuidelineVersion = (db: Db, studyId: number) =>
  (stmt(db, 'SELECT max(version) FROM study_guideline_versions WHERE study_id = ?').pluck().get(studyId) as number | null) ?? 1;

/**
 * Whether a reviewer worked on an item of the study (a draft saved or a submission: `first_seen_at`) before its
 * newest guidelines version was written: only they worked under an earlier version, so only they are told the
 * guidelines changed. False for a study never edited.
 */
export const workedBeforeLatestGuidelines = (db: Db, studyId: number, userId: number) =>
  (stmt(
    db,
    `SELECT EXISTS (
       SELECT 1 FROM assignments a
        WHERE a.study_id = @studyId AND a.user_id = @userId AND a.first_seen_at IS NOT NULL
          AND a.first_seen_at < (SELECT v.created_at FROM study_guideline_versions v
                                  WHERE v.study_id = @studyId AND v.version > 1 ORDER BY v.version DESC LIMIT 1))`,
  )
    .pluck()
    .get({ studyId, userId }) as number) === 1;
