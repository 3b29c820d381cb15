/**
 * Gold items: items whose answers the lead knows, mixed into reviewers' queues to check them (docs/decisions/0030).
 * Kept apart from the items themselves (which are immutable once imported) and from the study row (which others
 * extend), so marking an item gold never rewrites anything a reviewer's work hangs on.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { items, studies } from './studies';

export const GOLD_SOURCES = ['import', 'lead'] as const;

/**
 * Append-only (a trigger refuses updates, migration 0023): every mark or unmark is a new row, and the newest row of an
 * (item, unit) is its gold label; a null label unmarks it. So who set which answer, and when, is never lost. `unit`
 * is the kind's unit (a pairwise criterion, a rubric dimension, a flow review's `decision`), `label` a name in that
 * unit's label set, both checked by the kind's gold facet before they are written.
 */
export const goldLabels = sqliteTable(
  'gold_labels',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    unit: text('unit').notNull(),
    label: text('label'),
    source: text('source', { enum: GOLD_SOURCES }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('gold_labels_item_unit_idx').on(t.itemId, t.unit, t.id),
    index('gold_labels_study_idx').on(t.studyId, t.itemId),
    index('gold_labels_created_by_idx').on(t.createdBy),
    check('gold_labels_label_not_blank', sql`${t.label} IS NULL OR length(trim(${t.label})) > 0`),
  ],
);

/**
 * A study's gold settings, one row per study that has any (none: rate 0, no threshold). `rate_pct`: the share of
 * each reviewer's queue made of gold items, 0–50 %; `alert_below_pct`: the lead is warned when a reviewer's accuracy
 * on gold falls below it (null: never).
 */
export const studyGoldSettings = sqliteTable(
  'study_gold_settings',
  {
    studyId: integer('study_id')
      .primaryKey()
      .references(() => studies.id, { onDelete: 'cascade' }),
    ratePct: integer('rate_pct').notNull().default(0),
    alertBelowPct: integer('alert_below_pct'),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    check('study_gold_settings_rate', sql`${t.ratePct} BETWEEN 0 AND 50`),
    check('study_gold_settings_alert', sql`${t.alertBelowPct} IS NULL OR ${t.alertBelowPct} BETWEEN 0 AND 100`),
    index('study_gold_settings_updated_by_idx').on(t.updatedBy),
  ],
);
