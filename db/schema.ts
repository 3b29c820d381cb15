import { type SQL, sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const ROLES = ['admin', 'lead', 'annotator'] as const;
export const STUDY_KINDS = ['flow_review', 'pairwise', 'rubric'] as const;
export const STUDY_STATUSES = ['draft', 'open', 'closed'] as const;
export const ASSIGNMENT_STATES = ['pending', 'submitted'] as const;
export const FLOW_DECISIONS = ['verify', 'truncate', 'discard'] as const;
export const LABELS = ['lose', 'tie', 'win'] as const;
export const SCREEN_CHOICES = ['r1', 'tie', 'r2'] as const;
export const ASSIGNMENT_MODES = ['balanced', 'fixed_sets'] as const;
export const GROUND_TRUTH_RULES = ['adjudicated', 'majority'] as const;

const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    // Null for accounts created by an import of prior annotations: they cannot sign in.
    passwordHash: text('password_hash'),
    role: text('role', { enum: ROLES }).notNull().default('annotator'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    // Bumped on sign-out, disable, role change and password reset; a JWT carrying an older value is refused.
    sessionVersion: integer('session_version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(t.username),
    check('users_username_format', sql`${t.username} GLOB '[a-z0-9]*' AND length(${t.username}) BETWEEN 2 AND 64`),
  ],
);

export const SIGN_IN_LIMITS = ['account', 'address'] as const;

/**
 * Sign-in throttling, per username (whether or not such an account exists, so that throttling tells nothing about
 * which names exist) and per client address. An attempt is counted before its password is checked, in one
 * statement, so that parallel attempts cannot all slip under the limit; a success takes its own count back.
 */
export const signInAttempts = sqliteTable(
  'sign_in_attempts',
  {
    kind: text('kind', { enum: SIGN_IN_LIMITS }).notNull(),
    key: text('key').notNull(),
    attempts: integer('attempts').notNull(),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    lastAttemptAt: integer('last_attempt_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), index('sign_in_attempts_last_idx').on(t.lastAttemptAt)],
);

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
  (t) => [primaryKey({ columns: [t.studyId, t.version] }), check('study_guideline_versions_positive', sql`${t.version} >= 1`)],
);

/** Settings of the installation as a whole, one row per key (e.g. `demo`, written by the demo seed). */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

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
  (t) => [primaryKey({ columns: [t.studyId, t.userId] })],
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
    // 1..reviewers_per_item; unique per item, so an item can never get more reviewers than planned.
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
  },
  (t) => [
    uniqueIndex('assignments_item_user_unique').on(t.itemId, t.userId),
    uniqueIndex('assignments_item_slot_unique').on(t.itemId, t.slot),
    index('assignments_queue_idx').on(t.userId, t.studyId, t.state, t.queuePosition),
    index('assignments_study_state_idx').on(t.studyId, t.state, t.submittedAt),
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
  (t) => [primaryKey({ columns: [t.studyId, t.userId] })],
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

export const imports = sqliteTable('imports', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  studyId: integer('study_id')
    .notNull()
    .references(() => studies.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['items', 'annotations', 'judge'] }).notNull(),
  format: text('format').notNull(),
  filename: text('filename').notNull(),
  records: integer('records').notNull(),
  inserted: integer('inserted').notNull(),
  unchanged: integer('unchanged').notNull(),
  // A large import writes its items in short batches ('staging') so other writers are never held up for long,
  // and becomes 'done' in one last transaction. A staging import whose process is gone is undone (its items
  // deleted, this row too) by the next server or CLI start and before the next import or opening of its study.
  state: text('state', { enum: ['staging', 'done'] })
    .notNull()
    .default('done'),
  ownerPid: integer('owner_pid'),
  ownerHost: text('owner_host'),
  heartbeatAt: integer('heartbeat_at'),
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
});

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id),
    action: text('action').notNull(),
    studyId: integer('study_id'),
    objectId: integer('object_id'),
    detail: text('detail', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_study_idx').on(t.studyId, t.createdAt)],
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

/** Append-only: the newest revision per (item, criterion) is the adjudicated label. */
export const adjudications = sqliteTable(
  'adjudications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    revision: integer('revision').notNull(),
    label: text('label', { enum: LABELS }).notNull(),
    rationale: text('rationale'),
    adjudicatorId: integer('adjudicator_id')
      .notNull()
      .references(() => users.id),
    // One ruling request writes a row per criterion, all with its id and the hash of its canonical content.
    requestId: text('request_id').notNull(),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('adjudications_item_criterion_revision_unique').on(t.itemId, t.criterion, t.revision),
    // Request ids are per person, like those of annotations.
    index('adjudications_request_idx').on(t.adjudicatorId, t.requestId),
    check('adjudications_label_valid', sql`${t.label} IN ('lose', 'tie', 'win')`),
  ],
);

/**
 * The length in characters of each pairwise item's two replies, for the length-bias report: written by a trigger
 * when the item is inserted (migration 0013; items never change afterwards), so a report over 100,000 items reads
 * two numbers per item instead of parsing every payload. Null where a reply has no text.
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

/** The recipe of a combined judge run (DESIGN "Combined judges"). */
export type JudgeRunRecipe = {
  rule: 'all' | 'any' | 'majority';
  /** The combined runs, by name, in the order given. */
  runs: string[];
  /** Pairs some source run did not judge: left unjudged (`unjudged`) or combined from the verdicts there are (`ignore`). */
  missing: 'unjudged' | 'ignore';
  /** (item, criterion) pairs judged by at least one source run; combined; left unjudged by a majority tie; left unjudged for a missing verdict. */
  counts: { pairs: number; combined: number; tie: number; missing: number };
};

/** A named set of LLM-judge labels for a study (e.g. one model with one prompt). Never shown to annotators. */
export const judgeRuns = sqliteTable(
  'judge_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    format: text('format').notNull(),
    filename: text('filename').notNull(),
    // Records left out because the verdict could not be read (never guessed), with their items.
    unparsed: text('unparsed', { mode: 'json' }).$type<{ item: string; line: number; message: string }[]>().notNull(),
    // The import that writes the run (imports.id; null for runs older than this column). A run is 'staging' while
    // its verdicts go in by short batches, and nobody reads it until its import's last transaction makes it
    // 'done'; a failed or abandoned import deletes it again (lib/server/imports/import-staging.ts).
    importId: integer('import_id'),
    state: text('state', { enum: ['staging', 'done'] })
      .notNull()
      .default('done'),
    // How a combined run was made from other runs of the study (format 'combined'): the rule, the source runs and
    // what was left unjudged. Null for imported runs.
    recipe: text('recipe', { mode: 'json' }).$type<JudgeRunRecipe>(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('judge_runs_study_name_unique').on(t.studyId, t.name)],
);

export const judgeLabels = sqliteTable(
  'judge_labels',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    // True when the judge saw the replies in the order b, a; the label is still from a's side.
    swapped: integer('swapped', { mode: 'boolean' }).notNull().default(false),
    label: text('label', { enum: LABELS }).notNull(),
    rationale: text('rationale'),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.criterion, t.swapped] }),
    check('judge_labels_label_valid', sql`${t.label} IN ('lose', 'tie', 'win')`),
  ],
);

/*
 * Packed labels. A dashboard over a million labels cannot afford a row per label, so every label, verdict and
 * ruling is also kept in compact form: one character per label in one short string per annotation, per judged
 * item and per adjudicated item. The packs are written only by triggers on the tables they mirror (migration
 * 0007), so every write path keeps them equal to the rows; those tables are append-only (a change is a new
 * revision), so a pack never has to change afterwards. Character code − 48 = 3 · code + label code for labels
 * and rulings, 6 · code + 3 · swapped + label code for verdicts (label code lose 0, tie 1, win 2; `code` from
 * `criterion_codes`).
 */

/**
 * A pack as one segment of the texts the dashboards read (`db/queries/packs.ts`): `/itemId,field….packed`, stored
 * when the pack is written so that a read only joins stored strings (formatting them at read time cost more than
 * the read).
 */
const segment = (expression: SQL) => text('segment').generatedAlwaysAs(expression, { mode: 'stored' });

/** Per study, a small code for every criterion labelled, judged or ruled on; assigned on first use, never changed. */
export const criterionCodes = sqliteTable(
  'criterion_codes',
  {
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    code: integer('code').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.criterion] }),
    uniqueIndex('criterion_codes_study_code_unique').on(t.studyId, t.code),
    // Keeps every packed character below the UTF-16 surrogate range (48 + 6 · 8999 + 5 < 0xD800).
    check('criterion_codes_code_range', sql`${t.code} BETWEEN 0 AND 8999`),
  ],
);

/**
 * The labels of one annotation packed in one string (`''` until its labels come), filed under its assignment's
 * study, item, slot and reviewer, in that order (WITHOUT ROWID) so that a dashboard reads a study's packs in one
 * range scan; every revision has its own row and the newest counts.
 */
export const annotationPacks = sqliteTable(
  'annotation_packs',
  {
    studyId: integer('study_id').notNull(),
    itemId: integer('item_id').notNull(),
    slot: integer('slot').notNull(),
    revision: integer('revision').notNull(),
    userId: integer('user_id').notNull(),
    annotationId: integer('annotation_id')
      .notNull()
      .references(() => annotations.id, { onDelete: 'cascade' }),
    packed: text('packed').notNull(),
    segment: segment(sql`'/' || "item_id" || ',' || "slot" || ',' || "revision" || ',' || "user_id" || '.' || "packed"`),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.itemId, t.slot, t.revision] }),
    uniqueIndex('annotation_packs_annotation_unique').on(t.annotationId),
  ],
);

/** The verdicts of one judge run on one item packed in one string, both orders (WITHOUT ROWID, in item order). */
export const judgeLabelPacks = sqliteTable(
  'judge_label_packs',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    packed: text('packed').notNull(),
    segment: segment(sql`'/' || "item_id" || '.' || "packed"`),
  },
  (t) => [primaryKey({ columns: [t.runId, t.itemId] })],
);

/** The newest ruling on each criterion of one item packed in one string (WITHOUT ROWID, in study and item order). */
export const adjudicationPacks = sqliteTable(
  'adjudication_packs',
  {
    studyId: integer('study_id').notNull(),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    packed: text('packed').notNull(),
    segment: segment(sql`'/' || "item_id" || '.' || "packed"`),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.itemId] })],
);

/*
 * Rubric labels. A rubric study's dimensions (studies.criteria) are fixed when the study is created, so a label is
 * stored as two small codes: the dimension's index in the catalog and the label's index in that dimension's label
 * set (worst first). The use-cases translate names to codes after checking them against the catalog; the CHECKs
 * keep the codes inside the bounds of `lib/validation/rubric.ts`. See docs/decisions/0010-rubric-labels.md.
 */

/** One reviewer's label on one dimension, for one annotation (a revision of a rubric assignment). */
export const rubricLabels = sqliteTable(
  'rubric_labels',
  {
    annotationId: integer('annotation_id')
      .notNull()
      .references(() => annotations.id, { onDelete: 'cascade' }),
    dimension: integer('dimension').notNull(),
    label: integer('label').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.annotationId, t.dimension] }),
    check('rubric_labels_dimension_range', sql`${t.dimension} BETWEEN 0 AND 63`),
    check('rubric_labels_label_range', sql`${t.label} BETWEEN 0 AND 15`),
  ],
);

/** Append-only: the newest revision per (item, dimension) is the adjudicated label. */
export const rubricAdjudications = sqliteTable(
  'rubric_adjudications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    dimension: integer('dimension').notNull(),
    revision: integer('revision').notNull(),
    label: integer('label').notNull(),
    rationale: text('rationale'),
    adjudicatorId: integer('adjudicator_id')
      .notNull()
      .references(() => users.id),
    requestId: text('request_id').notNull(),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rubric_adjudications_item_dimension_revision_unique').on(t.itemId, t.dimension, t.revision),
    index('rubric_adjudications_request_idx').on(t.adjudicatorId, t.requestId),
    check('rubric_adjudications_dimension_range', sql`${t.dimension} BETWEEN 0 AND 63`),
    check('rubric_adjudications_label_range', sql`${t.label} BETWEEN 0 AND 15`),
  ],
);

/** A judge run's verdict on one dimension of one rubric item; `sample` numbers repeated samplings (1 first). */
export const rubricJudgeLabels = sqliteTable(
  'rubric_judge_labels',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    dimension: integer('dimension').notNull(),
    sample: integer('sample').notNull().default(1),
    label: integer('label').notNull(),
    rationale: text('rationale'),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.dimension, t.sample] }),
    check('rubric_judge_labels_dimension_range', sql`${t.dimension} BETWEEN 0 AND 63`),
    check('rubric_judge_labels_label_range', sql`${t.label} BETWEEN 0 AND 15`),
    check('rubric_judge_labels_sample_range', sql`${t.sample} BETWEEN 1 AND 100`),
  ],
);

/**
 * One judge run's verdicts on one rubric item in one sample, packed in one string (one character per dimension,
 * 48 + 16 · dimension + label, as the annotation packs of a rubric study), kept equal to `rubric_judge_labels` by
 * triggers (migration 0012). The dashboards read a run's sample in one range scan of these rows, a quarter of
 * the verdict rows and joined into one text by SQLite (docs/decisions/0005-packed-labels.md).
 */
export const rubricJudgeLabelPacks = sqliteTable(
  'rubric_judge_label_packs',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    sample: integer('sample').notNull(),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    packed: text('packed').notNull(),
    segment: segment(sql`'/' || "item_id" || '.' || "packed"`),
  },
  (t) => [primaryKey({ columns: [t.runId, t.sample, t.itemId] })],
);

/*
 * Judges run from Concord (DESIGN "Running judges from Concord"). A launched run is an ordinary `judge_runs` row in
 * state 'done' (so every dashboard reads its verdicts as they arrive, and they stay append-only), with its
 * configuration and its own life cycle in `judge_launches`, one row per request answered in `judge_answers`, and
 * the verdicts of sample 1 also written to `judge_labels` as those of an imported run.
 */

export const JUDGE_LAUNCH_STATES = ['running', 'paused', 'cancelled', 'done', 'circuit_open'] as const;

/** A prompt template of a study; editing one adds a new version under the same name, never changes an old one. */
export const judgeTemplates = sqliteTable(
  'judge_templates',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    // The template JSON as validated by lib/validation/judge-template.ts.
    body: text('body').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('judge_templates_study_name_version_unique').on(t.studyId, t.name, t.version),
    check('judge_templates_version_positive', sql`${t.version} >= 1`),
  ],
);

/** The configuration and state of a judge run launched from Concord. The API key's value is never stored. */
export const judgeLaunches = sqliteTable(
  'judge_launches',
  {
    runId: integer('run_id')
      .primaryKey()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => judgeTemplates.id),
    endpoint: text('endpoint').notNull(),
    model: text('model').notNull(),
    // The NAME of the environment variable holding the key, read by the runner process only.
    apiKeyEnv: text('api_key_env'),
    temperature: integer('temperature_milli'),
    maxTokens: integer('max_tokens'),
    seed: integer('seed'),
    samples: integer('samples').notNull().default(1),
    bothOrders: integer('both_orders', { mode: 'boolean' }).notNull().default(true),
    concurrency: integer('concurrency').notNull().default(4),
    itemLimit: integer('item_limit'),
    timeoutMs: integer('timeout_ms').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    circuitAfter: integer('circuit_after').notNull(),
    // Prices in US dollars per million tokens, entered by the lead (for the cost estimate only).
    priceIn: text('price_in'),
    priceOut: text('price_out'),
    state: text('state', { enum: JUDGE_LAUNCH_STATES }).notNull().default('running'),
    reason: text('reason'),
    requests: integer('requests').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    ownerPid: integer('owner_pid'),
    ownerHost: text('owner_host'),
    heartbeatAt: integer('heartbeat_at'),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    check('judge_launches_samples_range', sql`${t.samples} BETWEEN 1 AND 100`),
    check('judge_launches_concurrency_range', sql`${t.concurrency} BETWEEN 1 AND 256`),
    index('judge_launches_state_idx').on(t.state),
  ],
);

/**
 * One row per request answered: an item, a criterion ('*' for a template judging all its criteria together), a
 * sample and an order. The key makes a second write of the same answer impossible. `verdicts` is a JSON object
 * from criterion to canonical label ({} when nothing could be read); `unreadable` counts the criteria it could
 * not read; `raw` is the judge's text, kept for the lead.
 */
export const judgeAnswers = sqliteTable(
  'judge_answers',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    sample: integer('sample').notNull(),
    swapped: integer('swapped', { mode: 'boolean' }).notNull(),
    verdicts: text('verdicts').notNull(),
    unreadable: integer('unreadable').notNull(),
    raw: text('raw').notNull(),
    promptHash: text('prompt_hash').notNull(),
    tokensIn: integer('tokens_in').notNull().default(0),
    tokensOut: integer('tokens_out').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    cached: integer('cached', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.criterion, t.sample, t.swapped] }),
    index('judge_answers_run_created_idx').on(t.runId, t.createdAt),
  ],
);

/** Answers by hash(endpoint, model, parameters, rendered prompt, sample): an unchanged request is not sent again. */
export const judgeAnswerCache = sqliteTable('judge_answer_cache', {
  key: text('key').primaryKey(),
  raw: text('raw').notNull(),
  tokensIn: integer('tokens_in').notNull(),
  tokensOut: integer('tokens_out').notNull(),
  createdAt: createdAt(),
});
