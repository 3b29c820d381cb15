import type { Db } from '../client';
import { isNewestAnnotation } from './latest-revision';

/** The counting revision of every submitted assignment in a study: the newest one. */
const LATEST = `
  SELECT a.id AS assignmentId, a.item_id AS itemId, a.user_id AS userId, a.active_ms AS activeMs, a.submitted_at AS submittedAt,
         an.decision, an.after_step AS afterStep, an.reasons, an.note
    FROM assignments a
    JOIN annotations an ON an.assignment_id = a.id
     AND ${isNewestAnnotation()}
   WHERE a.study_id = @studyId AND a.state = 'submitted'`;

export type DecisionRow = {
  assignmentId: number;
  itemId: number;
  userId: number;
  activeMs: number;
  submittedAt: number;
  decision: 'verify' | 'truncate' | 'discard';
  afterStep: number | null;
  reasons: string | null;
  note: string | null;
};

export const decisionCounts = (db: Db, studyId: number) =>
  db.$client.prepare(`SELECT decision, count(*) AS n FROM (${LATEST}) GROUP BY decision`).all({ studyId }) as {
    decision: DecisionRow['decision'];
    n: number;
  }[];

export const discardReasonCounts = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT r.value AS reason, count(*) AS n FROM (${LATEST}) l, json_each(l.reasons) r
        WHERE l.decision = 'discard' GROUP BY r.value ORDER BY n DESC`,
    )
    .all({ studyId }) as { reason: string; n: number }[];

/**
 * Per reviewer: assignments, submissions, their active time, and `rateMs`, the active time with each submitted item
 * counted as at least `minItemMs` (the time the throughput divides by; flow-report.ts says why).
 */
export const reviewerStats = (db: Db, studyId: number, minItemMs = 0) =>
  db.$client
    .prepare(
      `SELECT u.id AS userId, u.username, u.display_name AS displayName,
              count(a.id) AS assigned,
              coalesce(sum(a.state = 'submitted'), 0) AS submitted,
              coalesce(sum(CASE WHEN a.state = 'submitted' THEN a.active_ms END), 0) AS activeMs,
              coalesce(sum(CASE WHEN a.state = 'submitted' THEN max(a.active_ms, @minItemMs) END), 0) AS rateMs
         FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.study_id = @studyId
        GROUP BY u.id ORDER BY u.username`,
    )
    .all({ studyId, minItemMs }) as {
    userId: number;
    username: string;
    displayName: string;
    assigned: number;
    submitted: number;
    activeMs: number;
    rateMs: number;
  }[];

export const submissionsPerDay = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT date(a.submitted_at / 1000, 'unixepoch') AS day, u.username, count(*) AS n
         FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.study_id = @studyId AND a.state = 'submitted'
        GROUP BY day, u.username ORDER BY day`,
    )
    .all({ studyId }) as { day: string; username: string; n: number }[];

/**
 * Every submitted decision with its item and reviewer, in item order then reviewer; `pending` counts the item's
 * reviews not submitted yet (0 once every planned reviewer has submitted).
 */
export const iterateDecisions = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT l.*, i.external_id AS externalId, i.position, i.payload AS itemPayload, u.username,
              (SELECT count(*) FROM assignments p WHERE p.item_id = l.itemId AND p.state = 'pending') AS pending
         FROM (${LATEST}) l JOIN items i ON i.id = l.itemId JOIN users u ON u.id = l.userId
        ORDER BY i.position, u.username`,
    )
    .iterate({ studyId }) as IterableIterator<
    DecisionRow & { externalId: string; position: number; itemPayload: string; username: string; pending: number }
  >;

/** Items of a study that do not have every planned review in: some review pending, or no reviewer at all. */
export const countIncompleteItems = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT count(*) FROM items i
        WHERE i.study_id = ?
          AND (EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.state = 'pending')
               OR NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id))`,
    )
    .pluck()
    .get(studyId) as number;

export type FlowListRow = {
  itemId: number;
  externalId: string;
  stepCount: number | null;
  reviewers: string | null;
  decisions: string | null;
  submitted: number;
  assigned: number;
};

/**
 * Items with their (possibly several) reviewers' decisions, filterable, for the lead's list. Without a filter on the
 * reviews (decision, reviewer) the page's items are chosen and counted from `items` alone, and only those 50 are
 * joined to their reviews: grouping every item of a 150,000-flow study for one page took 1.8 s in the soak (BENCHMARKS).
 */
export function listFlows(
  db: Db,
  studyId: number,
  opts: { decision?: string; reviewer?: string; search?: string; limit: number; offset: number },
) {
  const where: string[] = ['i.study_id = @studyId'];
  if (opts.search) where.push(`i.external_id LIKE @search ESCAPE '\\'`);
  const having: string[] = [];
  if (opts.decision === 'pending') having.push(`(coalesce(sum(a.state = 'submitted'), 0) < count(a.id) OR count(a.id) = 0)`);
  else if (opts.decision) having.push(`sum(l.decision = @decision) > 0`);
  if (opts.reviewer) having.push(`sum(u.username = @reviewer) > 0`);
  const params = {
    studyId,
    decision: opts.decision ?? null,
    reviewer: opts.reviewer ?? null,
    search: opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null,
    limit: opts.limit,
    offset: opts.offset,
  };
  const grouped = (from: string, filter: string) => `
    SELECT i.id AS itemId, i.external_id AS externalId, i.step_count AS stepCount,
           group_concat(u.username, ',') AS reviewers,
           group_concat(coalesce(l.decision || CASE WHEN l.afterStep IS NOT NULL THEN ':' || l.afterStep ELSE '' END, 'pending'), ',') AS decisions,
           coalesce(sum(a.state = 'submitted'), 0) AS submitted, count(a.id) AS assigned
      FROM ${from} i
      LEFT JOIN assignments a ON a.item_id = i.id
      LEFT JOIN users u ON u.id = a.user_id
      LEFT JOIN (${LATEST}) l ON l.assignmentId = a.id
     ${filter}
     GROUP BY i.id
     ${having.length ? `HAVING ${having.join(' AND ')}` : ''}
     ORDER BY i.position`;
  if (having.length === 0) {
    const total = db.$client
      .prepare(`SELECT count(*) FROM items i WHERE ${where.join(' AND ')}`)
      .pluck()
      .get(params) as number;
    const page = `(SELECT * FROM items i WHERE ${where.join(' AND ')} ORDER BY i.position LIMIT @limit OFFSET @offset)`;
    return { total, rows: db.$client.prepare(grouped(page, '')).all(params) as FlowListRow[] };
  }
  const sql = grouped('items', `WHERE ${where.join(' AND ')}`);
  const total = (db.$client.prepare(`SELECT count(*) FROM (${sql})`).pluck().get(params) as number) ?? 0;
  const rows = db.$client.prepare(`${sql} LIMIT @limit OFFSET @offset`).all(params) as FlowListRow[];
  return { total, rows };
}
