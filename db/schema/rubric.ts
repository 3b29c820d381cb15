/** Rubric studies: reviewers' labels, rulings and judge verdicts, by dimension. */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { annotations } from './annotations';
import { createdAt } from './columns';
import { judgeRuns } from './judges';
import { items } from './studies';

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
    // The judge's own confidence in this verdict, 0–1, when its file gave one (checked on import).
    confidence: real('confidence'),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.dimension, t.sample] }),
    check('rubric_judge_labels_dimension_range', sql`${t.dimension} BETWEEN 0 AND 63`),
    check('rubric_judge_labels_label_range', sql`${t.label} BETWEEN 0 AND 15`),
    check('rubric_judge_labels_sample_range', sql`${t.sample} BETWEEN 1 AND 100`),
    index('rubric_judge_labels_item_idx').on(t.itemId),
  ],
);
