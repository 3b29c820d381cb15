/** The packed labels the dashboards read, kept by triggers equal to the rows they mirror. */
import { type SQL, sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { annotations } from './annotations';
import { judgeRuns } from './judges';
import { items, studies } from './studies';

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
  (t) => [primaryKey({ columns: [t.runId, t.itemId] }), index('judge_label_packs_item_idx').on(t.itemId)],
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
  (t) => [primaryKey({ columns: [t.studyId, t.itemId] }), index('adjudication_packs_item_idx').on(t.itemId)],
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
  (t) => [primaryKey({ columns: [t.runId, t.sample, t.itemId] }), index('rubric_judge_label_packs_item_idx').on(t.itemId)],
);
