/** Studies, their members and guideline versions, and the items they review. */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';

export const STUDY_KINDS = ['flow_review', 'pairwise', 'rubric'] as const;
export const STUDY_STATUSES = ['draft', 'open', 'closed'] as const;
export const ASSIGNMENT_MODES = ['balanced', 'fixed_sets'] as const;
// dawid_skene and mace: whole-study label models (lib/server/ground-truth/model-gold.ts), decision 0028.
export const GROUND_TRUTH_RULES = ['adjudicated', 'majority', 'dawid_skene', 'mace'] as const;

export const studies = sqliteTable(
  'studies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: STUDY_KINDS }).notNull(),
    name: text('name').notNull(),
    guidelines: text('guidelines').notNull().default(''),
    status: text('status', { enum: STUDY_STATUSES }).notNull().default('draft'),
    payRateCents: integer('pay_rate_cents').notNull().default(0),
    reviewersPerItem: integer('reviewers_per_item').notNull().default(1),
    // Assignments are derived from this seed when the study opens, so they can be reproduced.
    seed: integer('seed').notNull(),
    principles: text('principles', { mode: 'json' }).$type<string[]>().notNull(),
    criteria: text('criteria', { mode: 'json' }).$type<unknown[] | null>(),
    adjudicatorId: integer('adjudicator_id').references(() => users.id),
    // balanced: least-loaded reviewers per item; fixed_sets: items split into sets, each judged by one fixed group.
    assignmentMode: text('assignment_mode', { enum: ASSIGNMENT_MODES }).notNull().default('balanced'),
    groundTruthRule: text('ground_truth_rule', { enum: GROUND_TRUTH_RULES }).notNull().default('adjudicated'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    openedAt: integer('opened_at', { mode: 'timestamp_ms' }),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    // When reviewers should be done; shown to them and to leads, never enforced.
    deadlineAt: integer('deadline_at', { mode: 'timestamp_ms' }),
    // A closed study put away: left out of the studies list unless archived studies are asked for.
    archivedAt: integer('archived_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    check('studies_reviewers_range', sql`${t.reviewersPerItem} BETWEEN 1 AND 10`),
    check('studies_pay_rate_nonnegative', sql`${t.payRateCents} >= 0`),
    index('studies_created_by_idx').on(t.createdBy),
    index('studies_adjudicator_idx').on(t.adjudicatorId),
  ],
);

/**
 * Every version of a study's guidelines, newest highest. `studies.guidelines` holds the current one (what reviewers
 * see); editing an open study's guidelines adds a version here, so what reviewers were shown earlier is kept.
 */
export const studyGuidelineVersions = sqliteTable(
  'study_guideline_versions',
  {
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    guidelines: text('guidelines').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.version] }),
    check('study_guideline_versions_positive', sql`${t.version} >= 1`),
    index('study_guideline_versions_created_by_idx').on(t.createdBy),
  ],
);

export const studyMembers = sqliteTable(
  'study_members',
  {
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    // For the KMP scheme: reviewers sharing a set number judge the same items.
    setIndex: integer('set_index'),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.userId] }), index('study_members_user_idx').on(t.userId)],
);

export const items = sqliteTable(
  'items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    position: integer('position').notNull(),
    payload: text('payload').notNull(),
    contentHash: text('content_hash').notNull(),
    stepCount: integer('step_count'),
    // Pairwise: who wrote each reply. Kept for the lead's statistics; never sent to annotators or adjudicators.
    sourceA: text('source_a'),
    sourceB: text('source_b'),
    // Rubric: the dialogue several tutors' replies answer (the item's `group`); a reviewer gets a group's replies
    // one after another. Null for items of other kinds and for rubric items without a group.
    groupKey: text('group_key'),
    // The import that wrote the item (imports.id; null for items older than this column). While that import is
    // still 'staging', its items are not final: a failed or abandoned import removes them again.
    importId: integer('import_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('items_study_external_unique').on(t.studyId, t.externalId),
    uniqueIndex('items_study_position_unique').on(t.studyId, t.position),
    index('items_import_idx').on(t.importId),
    // The dashboards' items by model, without reading the items themselves (payloads make them large).
    index('items_study_source_idx').on(t.studyId, t.sourceA),
    index('items_study_group_idx').on(t.studyId, t.groupKey),
  ],
);

/**
 * The length in characters of each pairwise item's two replies, and of each rubric item's one reply (`lengthA`), for
 * the length-bias reports: written by a trigger when the item is inserted (migrations 0013 and 0018; items never
 * change afterwards), so a report over 100,000 items reads two numbers per item instead of parsing every payload.
 * Null where a reply has no text.
 */
export const itemReplyLengths = sqliteTable(
  'item_reply_lengths',
  {
    itemId: integer('item_id')
      .primaryKey()
      .references(() => items.id, { onDelete: 'cascade' }),
    studyId: integer('study_id').notNull(),
    lengthA: integer('length_a'),
    lengthB: integer('length_b'),
  },
  // Covers the report's read: a study's lengths in one index range scan.
  (t) => [index('item_reply_lengths_study_idx').on(t.studyId, t.itemId, t.lengthA, t.lengthB)],
);
