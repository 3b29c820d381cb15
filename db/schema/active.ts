/**
 * Active labelling (issue 28): which items a review queue drew for people, and with what probability. The
 * inverse-probability-weighted estimator (lib/stats/active-inference.ts) needs π for every item of the pool the
 * draw was made from, labelled or not, so the draw is stored once, when the queue is opened, before any label.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { judgeRuns } from './judges';
import { items, studies } from './studies';

/** Where a judge's uncertainty about an item comes from ('confidence': the verbalised confidence of each verdict). */
export const UNCERTAINTY_SOURCES = ['orders', 'samples', 'second_judge', 'confidence'] as const;

export const activeDraws = sqliteTable(
  'active_draws',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    source: text('source', { enum: UNCERTAINTY_SOURCES }).notNull(),
    // The second judge run whose disagreement is the uncertainty (source 'second_judge' only).
    secondRunId: integer('second_run_id').references(() => judgeRuns.id, { onDelete: 'cascade' }),
    budget: real('budget').notNull(),
    tau: real('tau').notNull(),
    seed: integer('seed').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('active_draws_run_idx').on(t.runId, t.criterion),
    index('active_draws_study_idx').on(t.studyId),
    index('active_draws_second_run_idx').on(t.secondRunId),
    index('active_draws_created_by_idx').on(t.createdBy),
    check('active_draws_budget_range', sql`${t.budget} > 0 AND ${t.budget} <= 1`),
    check('active_draws_tau_range', sql`${t.tau} >= 0 AND ${t.tau} <= 1`),
  ],
);

/** Every item of a draw's pool: its labelling probability and whether it was drawn (sent to people). */
export const activeDrawItems = sqliteTable(
  'active_draw_items',
  {
    drawId: integer('draw_id')
      .notNull()
      .references(() => activeDraws.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    pi: real('pi').notNull(),
    drawn: integer('drawn', { mode: 'boolean' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.drawId, t.itemId] }),
    index('active_draw_items_item_idx').on(t.itemId),
    check('active_draw_items_pi_range', sql`${t.pi} > 0 AND ${t.pi} <= 1`),
  ],
);
