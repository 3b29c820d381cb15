/** Adjudicators' rulings on pairwise items. */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { LABELS } from './annotations';
import { createdAt } from './columns';
import { items } from './studies';

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
