import { stmt, type Db } from '../client';
import { isNewestAnnotation, newestAnnotationRevision } from './latest-revision';

export type AssignmentRow = {
  id: number;
  studyId: number;
  itemId: number;
  userId: number;
  slot: number;
  queuePosition: number;
  swapped: 0 | 1;
  state: 'pending' | 'submitted';
  activeMs: number;
  creditedUntil: number | null;
  submittedAt: number | null;
  /** Set while a submitted assignment is being revised (it still counts until the revision is submitted). */
  revisingSince: number | null;
};

const COLUMNS = `id, study_id AS studyId, item_id AS itemId, user_id AS userId, slot, queue_position AS queuePosition,
  swapped, state, active_ms AS activeMs, credited_until AS creditedUntil, submitted_at AS submittedAt,
  revising_since AS revisingSince`;

export const findAssignment = (db: Db, id: number) =>
  stmt(db, `SELECT ${COLUMNS} FROM assignments WHERE id = ?`).get(id) as AssignmentRow | undefined;

/** A reviewer's progress in a study, from the counts the assignments triggers keep (one row, however large the study). */
export const QUEUE_COUNTS_SQL = 'SELECT total, submitted FROM queue_counts WHERE study_id = ? AND user_id = ?';
export const queueCounts = (db: Db, studyId: number, userId: number) =>
  (stmt(db, QUEUE_COUNTS_SQL).get(studyId, userId) as { total: number; submitted: number } | undefined) ?? {
    total: 0,
    submitted: 0,
  };

/** The first `limit` pending assignments of a reviewer, in queue order (uses assignments_queue_idx). */
export const nextPending = (db: Db, studyId: number, userId: number, limit: number) =>
  stmt(
    db,
    `SELECT id FROM assignments WHERE user_id = ? AND study_id = ? AND state = 'pending'
        ORDER BY queue_position LIMIT ?`,
  )
    .pluck()
    .all(userId, studyId, limit) as number[];

/** A reviewer's submitted assignments that they are revising, the most recently started first (assignments_revising_idx). */
export const revising = (db: Db, studyId: number, userId: number) =>
  stmt(
    db,
    `SELECT ${COLUMNS} FROM assignments WHERE user_id = ? AND study_id = ? AND revising_since IS NOT NULL
        ORDER BY revising_since DESC, id DESC`,
  ).all(userId, studyId) as AssignmentRow[];

export const lastSubmitted = (db: Db, studyId: number, userId: number) =>
  stmt(
    db,
    `SELECT ${COLUMNS} FROM assignments WHERE user_id = ? AND study_id = ? AND state = 'submitted'
        ORDER BY submitted_at DESC, id DESC LIMIT 1`,
  ).get(userId, studyId) as AssignmentRow | undefined;

export const itemPayload = (db: Db, itemId: number) =>
  stmt(db, 'SELECT external_id AS externalId, payload, step_count AS stepCount FROM items WHERE id = ?').get(itemId) as
    { externalId: string; payload: string; stepCount: number | null } | undefined;

export const findDraft = (db: Db, assignmentId: number) => {
  const row = stmt(db, 'SELECT payload FROM drafts WHERE assignment_id = ?').pluck().get(assignmentId) as string | undefined;
  return row === undefined ? null : (JSON.parse(row) as Record<string, unknown>);
};

export const upsertDraft = (db: Db, assignmentId: number, payload: unknown, now: number) =>
  stmt(
    db,
    `INSERT INTO drafts (assignment_id, payload, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(assignment_id) DO UPDATE SET payload = excluded.payload, updated_at = excluded.updated_at`,
  ).run(assignmentId, JSON.stringify(payload), now);

export const deleteDraft = (db: Db, assignmentId: number) => stmt(db, 'DELETE FROM drafts WHERE assignment_id = ?').run(assignmentId);

/** Starts the wall clock of active time when a pending item is first served to its reviewer. */
export const markServed = (db: Db, assignmentId: number, now: number) =>
  stmt(db, `UPDATE assignments SET credited_until = ? WHERE id = ? AND state = 'pending' AND credited_until IS NULL`).run(
    now,
    assignmentId,
  );

/** Sets the active time of an assignment and the wall-clock time up to which it has been credited. */
export const setActiveTime = (db: Db, assignmentId: number, activeMs: number, creditedUntil: number) =>
  stmt(db, 'UPDATE assignments SET active_ms = ?, credited_until = ? WHERE id = ?').run(activeMs, creditedUntil, assignmentId);

export type AnnotationRow = {
  id: number;
  assignmentId: number;
  revision: number;
  requestId: string;
  decision: 'verify' | 'truncate' | 'discard' | null;
  afterStep: number | null;
  reasons: string | null;
  note: string | null;
  payload: string | null;
  createdBy: number;
  requestHash: string | null;
};

const ANNOTATION_COLUMNS = `id, assignment_id AS assignmentId, revision, request_id AS requestId, decision,
  after_step AS afterStep, reasons, note, payload, created_by AS createdBy, request_hash AS requestHash`;

/** The annotation a person's request id wrote, if any (request ids are per person). */
export const findAnnotationByRequest = (db: Db, userId: number, requestId: string) =>
  stmt(db, `SELECT ${ANNOTATION_COLUMNS} FROM annotations WHERE created_by = ? AND request_id = ?`).get(userId, requestId) as
    AnnotationRow | undefined;

export const latestAnnotation = (db: Db, assignmentId: number) =>
  stmt(db, `SELECT ${ANNOTATION_COLUMNS} FROM annotations WHERE assignment_id = ? ORDER BY revision DESC LIMIT 1`).get(assignmentId) as
    AnnotationRow | undefined;

export function insertAnnotation(
  db: Db,
  a: {
    assignmentId: number;
    requestId: string;
    requestHash: string;
    decision?: string | null;
    afterStep?: number | null;
    reasons?: string[] | null;
    note?: string | null;
    payload?: unknown;
    createdBy: number;
  },
) {
  const revision =
    (stmt(db, 'SELECT coalesce(max(revision), 0) FROM annotations WHERE assignment_id = ?').pluck().get(a.assignmentId) as number) + 1;
  const info = stmt(
    db,
    `INSERT INTO annotations (assignment_id, revision, request_id, request_hash, decision, after_step, reasons, note, payload, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.assignmentId,
    revision,
    a.requestId,
    a.requestHash,
    a.decision ?? null,
    a.afterStep ?? null,
    a.reasons ? JSON.stringify(a.reasons) : null,
    a.note ?? null,
    a.payload === undefined ? null : JSON.stringify(a.payload),
    a.createdBy,
  );
  return { id: Number(info.lastInsertRowid), revision };
}

export const markSubmitted = (db: Db, assignmentId: number, now: number) =>
  stmt(db, `UPDATE assignments SET state = 'submitted', submitted_at = ? WHERE id = ? AND state = 'pending'`).run(now, assignmentId);

/** Gives a submitted assignment back to its reviewer (ending a revision under way); its active-time clock starts again now. */
export const markPending = (db: Db, assignmentId: number, now: number) =>
  stmt(
    db,
    `UPDATE assignments SET state = 'pending', submitted_at = NULL, revising_since = NULL, credited_until = ?
      WHERE id = ? AND state = 'submitted'`,
  ).run(now, assignmentId);

/**
 * Starts revising a submitted assignment: it stays submitted (its newest revision keeps counting), and its
 * active-time clock starts again now, as after an undo. Nothing changes when a revision is already under way.
 */
export const markRevising = (db: Db, assignmentId: number, now: number) =>
  stmt(
    db,
    `UPDATE assignments SET revising_since = ?, credited_until = ? WHERE id = ? AND state = 'submitted' AND revising_since IS NULL`,
  ).run(now, now, assignmentId);

/** A revision was submitted: the assignment counts as submitted now, with the new revision. */
export const markRevised = (db: Db, assignmentId: number, now: number) =>
  stmt(
    db,
    `UPDATE assignments SET submitted_at = ?, revising_since = NULL WHERE id = ? AND state = 'submitted' AND revising_since IS NOT NULL`,
  ).run(now, assignmentId);

/** Ends a revision without a new one: the submission stays as it was. */
export const endRevising = (db: Db, assignmentId: number) =>
  stmt(db, 'UPDATE assignments SET revising_since = NULL WHERE id = ?').run(assignmentId);

export const markSeen = (db: Db, assignmentId: number, now: number) =>
  stmt(db, 'UPDATE assignments SET first_seen_at = coalesce(first_seen_at, ?) WHERE id = ?').run(now, assignmentId);

/** A new pending assignment (made when a study opens or a hybrid review queue is opened). */
export type NewAssignment = { studyId: number; itemId: number; userId: number; slot: number; queuePosition: number; swapped: boolean };

export const insertAssignment = (db: Db, a: NewAssignment) =>
  stmt(db, 'INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, swapped) VALUES (?, ?, ?, ?, ?, ?)').run(
    a.studyId,
    a.itemId,
    a.userId,
    a.slot,
    a.queuePosition,
    a.swapped ? 1 : 0,
  );

/** An assignment already submitted (an imported prior annotation); returns its id. */
export const insertSubmittedAssignment = (db: Db, a: Omit<NewAssignment, 'swapped'> & { submittedAt: number }) =>
  Number(
    stmt(
      db,
      `INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, swapped, state, submitted_at)
     VALUES (?, ?, ?, ?, ?, 0, 'submitted', ?)`,
    ).run(a.studyId, a.itemId, a.userId, a.slot, a.queuePosition, a.submittedAt).lastInsertRowid,
  );

/** How many assignments (reviewer slots, pending or submitted) an item has. */
export const assignmentCountOfItem = (db: Db, itemId: number) =>
  stmt(db, 'SELECT count(*) FROM assignments WHERE item_id = ?').pluck().get(itemId) as number;

/** The slot the item's next reviewer gets. */
export const nextSlotOfItem = (db: Db, itemId: number) =>
  stmt(db, 'SELECT coalesce(max(slot), 0) + 1 FROM assignments WHERE item_id = ?').pluck().get(itemId) as number;

/** The highest slot of any assignment in a study (0 if none): imported prior raters may go beyond the plan. */
export const highestSlotOfStudy = (db: Db, studyId: number) =>
  stmt(db, 'SELECT coalesce(max(slot), 0) FROM assignments WHERE study_id = ?').pluck().get(studyId) as number;

/** The last queue position of a reviewer in a study, 0 when the queue is empty. */
export const lastQueuePosition = (db: Db, studyId: number, userId: number) =>
  stmt(db, 'SELECT coalesce(max(queue_position), 0) FROM assignments WHERE study_id = ? AND user_id = ?')
    .pluck()
    .get(studyId, userId) as number;

/** Per item of the study that has assignments: how many. */
export const assignmentCountsByItem = (db: Db, studyId: number) =>
  stmt(db, 'SELECT item_id AS itemId, count(*) AS n FROM assignments WHERE study_id = ? GROUP BY item_id').all(studyId) as {
    itemId: number;
    n: number;
  }[];

/** The study's items that have at least one assignment (any state). */
export const assignedItemIds = (db: Db, studyId: number) =>
  stmt(db, 'SELECT DISTINCT item_id FROM assignments WHERE study_id = ?').pluck().all(studyId) as number[];

/** The newest annotation of the person named `username` on an item, if their assignment is submitted. */
export const latestSubmittedAnnotationId = (db: Db, itemId: number, username: string) =>
  stmt(
    db,
    `SELECT an.id FROM assignments a JOIN users u ON u.id = a.user_id
         JOIN annotations an ON an.assignment_id = a.id
          AND ${isNewestAnnotation()}
        WHERE a.item_id = ? AND u.username = ? AND a.state = 'submitted'`,
  )
    .pluck()
    .get(itemId, username) as number | undefined;

/** The first (and only) revision of an imported annotation; returns its id. */
export const insertImportedAnnotation = (db: Db, assignmentId: number, requestId: string, createdBy: number) =>
  Number(
    stmt(db, 'INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, 1, ?, ?)').run(
      assignmentId,
      requestId,
      createdBy,
    ).lastInsertRowid,
  );

/** Moves an assignment to a new place in its reviewer's queue (the counts triggers do not watch this column). */
export const setQueuePosition = (db: Db, assignmentId: number, queuePosition: number) =>
  stmt(db, 'UPDATE assignments SET queue_position = ? WHERE id = ?').run(queuePosition, assignmentId);

/** The first queue position among a reviewer's pending assignments in a study, if any. */
export const firstPendingPosition = (db: Db, studyId: number, userId: number) =>
  stmt(db, `SELECT min(queue_position) FROM assignments WHERE user_id = ? AND study_id = ? AND state = 'pending'`)
    .pluck()
    .get(userId, studyId) as number | null;

/**
 * The text that names an item in a reviewer's history, whatever the kind: its problem (a string, or an object with a
 * `text`), or for an item without one (a rubric reply, whose problem is inside its dialogue) the reply judged.
 */
const PROBLEM_SQL = `CASE json_type(i.payload, '$.problem') WHEN 'object' THEN json_extract(i.payload, '$.problem.text')
  WHEN 'text' THEN json_extract(i.payload, '$.problem') ELSE json_extract(i.payload, '$.reply.text') END`;

export type SubmissionRow = {
  assignmentId: number;
  itemId: number;
  position: number;
  queuePosition: number;
  externalId: string;
  problem: string | null;
  submittedAt: number;
  revision: number;
};

/** `%`, `_` and `\` stand for themselves in a LIKE pattern written with ESCAPE '\'. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A reviewer's submitted assignments in a study, newest first, optionally only those whose item number is `search`
 * or whose problem contains it (case-insensitive for ASCII). Only the problem is searched: a reply's author or an
 * item's external id never decides what is found. The item number is its position in the study, or with
 * `numberBy: 'queue'` the reviewer's own queue position (rubric studies: docs/decisions/0013).
 */
export function submissionsOf(
  db: Db,
  studyId: number,
  userId: number,
  o: { search?: string; limit: number; offset: number; numberBy?: 'item' | 'queue' },
) {
  const where = `a.user_id = ? AND a.study_id = ? AND a.state = 'submitted'`;
  const params: unknown[] = [userId, studyId];
  let filter = '';
  if (o.search) {
    const n = /^#?(\d+)$/.exec(o.search);
    const number = o.numberBy === 'queue' ? 'a.queue_position' : 'i.position';
    filter = ` AND (${PROBLEM_SQL} LIKE ? ESCAPE '\\'${n ? ` OR ${number} = ?` : ''})`;
    params.push(`%${likeLiteral(o.search)}%`);
    if (n) params.push(Number(n[1]));
  }
  const rows = stmt(
    db,
    `SELECT a.id AS assignmentId, a.item_id AS itemId, i.position, a.queue_position AS queuePosition,
            i.external_id AS externalId, substr(${PROBLEM_SQL}, 1, 240) AS problem,
            a.submitted_at AS submittedAt,
            ${newestAnnotationRevision()} AS revision
       FROM assignments a JOIN items i ON i.id = a.item_id
      WHERE ${where}${filter}
      ORDER BY a.submitted_at DESC, a.id DESC LIMIT ? OFFSET ?`,
  ).all(...params, o.limit, o.offset) as SubmissionRow[];
  const total = stmt(db, `SELECT count(*) FROM assignments a JOIN items i ON i.id = a.item_id WHERE ${where}${filter}`)
    .pluck()
    .get(...params) as number;
  return { rows, total };
}

/**
 * A reviewer's pending assignments in a study that carry no annotation (never submitted, not even before an undo):
 * the work that can pass to someone else without taking anything of theirs along.
 */
export const untouchedPending = (db: Db, studyId: number, userId: number) =>
  stmt(
    db,
    `SELECT ${COLUMNS} FROM assignments a
      WHERE a.study_id = ? AND a.user_id = ? AND a.state = 'pending'
        AND NOT EXISTS (SELECT 1 FROM annotations n WHERE n.assignment_id = a.id)
      ORDER BY a.queue_position`,
  ).all(studyId, userId) as AssignmentRow[];

/** Pending assignments of a reviewer that already carry an (undone) annotation. */
export const pendingWithHistory = (db: Db, studyId: number, userId: number) =>
  stmt(
    db,
    `SELECT count(*) FROM assignments a
      WHERE a.study_id = ? AND a.user_id = ? AND a.state = 'pending'
        AND EXISTS (SELECT 1 FROM annotations n WHERE n.assignment_id = a.id)`,
  )
    .pluck()
    .get(studyId, userId) as number;

/** How many of the given items the user already has an assignment on. */
export const userItemOverlap = (db: Db, userId: number, fromUserId: number, studyId: number) =>
  stmt(
    db,
    `SELECT count(*) FROM assignments mine
      WHERE mine.user_id = ? AND mine.study_id = ?
        AND EXISTS (SELECT 1 FROM assignments theirs WHERE theirs.item_id = mine.item_id AND theirs.user_id = ? AND theirs.state = 'pending')`,
  )
    .pluck()
    .get(userId, studyId, fromUserId) as number;

/** Deletes an assignment that has no annotation (its draft goes with it). */
export const deleteUntouchedAssignment = (db: Db, id: number) =>
  stmt(db, 'DELETE FROM assignments WHERE id = ? AND NOT EXISTS (SELECT 1 FROM annotations WHERE assignment_id = ?)').run(id, id).changes;
