/**
 * Reviewers' work: assignments and their queue counts, annotations (append-only revisions) with their pairwise
 * labels, drafts and remarks.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { items, studies } from './studies';

export const ASSIGNMENT_STATES = ['pending', 'submitted'] as const;
export const FLOW_DECISIONS = ['verify', 'truncate', 'discard'] as const;
export const LABELS = ['lose', 'tie', 'win'] as const;
export const SCREEN_CHOICES = ['r1', 'tie', 'r2'] as const;

export const assignments = sqliteTable(
  'assignments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    // Unique per item. A pending (in-app) assignment takes a slot in 1..reviewers_per_item, so the app never plans
    // more reviewers than that; imported prior annotations (submitted on arrival) take the slots after it, as many
    // as the data has (decision 0028).
    slot: integer('slot').notNull(),
    queuePosition: integer('queue_position').notNull(),
    // Pairwise blinding: true when this reviewer sees b as "Response 1".
    swapped: integer('swapped', { mode: 'boolean' }).notNull().default(false),
    state: text('state', { enum: ASSIGNMENT_STATES }).notNull().default('pending'),
    activeMs: integer('active_ms').notNull().default(0),
    // The wall-clock time up to which active time has been credited: set when the item is served to its reviewer
    // (again after an undo); crediting d ms of active time moves it d ms on, never past the present. So the
    // active time of an assignment never adds up to more than the wall time its reviewer had the item.
    creditedUntil: integer('credited_until', { mode: 'timestamp_ms' }),
    firstSeenAt: integer('first_seen_at', { mode: 'timestamp_ms' }),
    submittedAt: integer('submitted_at', { mode: 'timestamp_ms' }),
    // Set while the reviewer revises this submitted assignment from their history (decision 0017): it stays
    // submitted, and its newest revision keeps counting, until the new revision is submitted; null otherwise.
    revisingSince: integer('revising_since', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('assignments_item_user_unique').on(t.itemId, t.userId),
    uniqueIndex('assignments_item_slot_unique').on(t.itemId, t.slot),
    index('assignments_queue_idx').on(t.userId, t.studyId, t.state, t.queuePosition),
    index('assignments_study_state_idx').on(t.studyId, t.state, t.submittedAt),
    // The revisions a reviewer has under way: a handful at most, found without reading their submitted assignments.
    index('assignments_revising_idx')
      .on(t.userId, t.studyId)
      .where(sql`${t.revisingSince} IS NOT NULL`),
    check('assignments_slot_positive', sql`${t.slot} >= 1`),
    check('assignments_active_ms_nonnegative', sql`${t.activeMs} >= 0`),
  ],
);

/**
 * How many assignments each reviewer has in a study, and how many of them are submitted. Kept by triggers on
 * `assignments` (migration 0005), so the progress shown after every submit is read in constant time, however
 * large the study, and stays exact whichever code path writes assignments.
 */
export const queueCounts = sqliteTable(
  'queue_counts',
  {
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    total: integer('total').notNull().default(0),
    submitted: integer('submitted').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.userId] }), index('queue_counts_user_idx').on(t.userId)],
);

/** Append-only: every submission is a new revision; the newest revision of a submitted assignment counts. */
export const annotations = sqliteTable(
  'annotations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    // Client-generated key, unique per person: a retried or double-clicked submit finds its first result instead
    // of writing again.
    requestId: text('request_id').notNull(),
    // SHA-256 of the canonical submission the request carried, to tell a retry from a different submission that
    // reuses the id. Null for annotations written before it was kept and for imported prior annotations.
    requestHash: text('request_hash'),
    decision: text('decision', { enum: FLOW_DECISIONS }),
    afterStep: integer('after_step'),
    reasons: text('reasons', { mode: 'json' }).$type<string[]>(),
    note: text('note'),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('annotations_assignment_revision_unique').on(t.assignmentId, t.revision),
    // Per person: one reviewer's request id never collides with, or reveals, another's.
    uniqueIndex('annotations_request_unique').on(t.createdBy, t.requestId),
    check('annotations_truncate_has_step', sql`${t.decision} IS NOT 'truncate' OR ${t.afterStep} >= 1`),
  ],
);

export const drafts = sqliteTable('drafts', {
  assignmentId: integer('assignment_id')
    .primaryKey()
    .references(() => assignments.id, { onDelete: 'cascade' }),
  payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * What a reviewer says about one of their items besides their labels: a flag with its reason (for the study's
 * leads, who see the flagged items on the study page) and a free comment. One row per assignment, set and cleared
 * by the reviewer; writing the same again changes nothing, so a retried or double-clicked save is harmless.
 */
export const assignmentRemarks = sqliteTable(
  'assignment_remarks',
  {
    assignmentId: integer('assignment_id')
      .primaryKey()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    flagReason: text('flag_reason'),
    flaggedAt: integer('flagged_at', { mode: 'timestamp_ms' }),
    comment: text('comment'),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    check(
      'assignment_remarks_flag_reason',
      sql`${t.flagReason} IS NULL OR (length(trim(${t.flagReason})) > 0 AND ${t.flaggedAt} IS NOT NULL)`,
    ),
    check('assignment_remarks_comment', sql`${t.comment} IS NULL OR length(trim(${t.comment})) > 0`),
  ],
);

/** Pairwise labels of one annotation, one row per criterion, canonical (from reply a's side) and as seen on screen. */
export const labels = sqliteTable(
  'labels',
  {
    annotationId: integer('annotation_id')
      .notNull()
      .references(() => annotations.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    label: text('label', { enum: LABELS }).notNull(),
    // What the reviewer pressed: Response 1 better, tie, Response 2 better. Null for imported prior annotations.
    screenChoice: text('screen_choice', { enum: SCREEN_CHOICES }),
  },
  (t) => [
    primaryKey({ columns: [t.annotationId, t.criterion] }),
    // Covers the dashboards' reads: every label of an annotation without a second lookup into the table.
    index('labels_annotation_covering_idx').on(t.annotationId, t.criterion, t.label),
    check('labels_label_valid', sql`${t.label} IN ('lose', 'tie', 'win')`),
    check('labels_screen_choice_valid', sql`${t.screenChoice} IS NULL OR ${t.screenChoice} IN ('r1', 'tie', 'r2')`),
  ],
);
