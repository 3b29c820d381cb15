/** Annotators a lead has left out of a study's ground truth and reports (issue 27, decision 0029). */
import { index, integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { studies } from './studies';

/**
 * One row per excluded annotator of a study: while it exists, every reader of the annotation packs
 * (`db/queries/packs.ts`) skips that annotator's labels. Including them again deletes the row; the audit log keeps
 * both changes, so the table holds only the present state.
 */
export const annotatorExclusions = sqliteTable(
  'annotator_exclusions',
  {
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    excludedBy: integer('excluded_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.userId] }),
    index('annotator_exclusions_user_idx').on(t.userId),
    index('annotator_exclusions_excluded_by_idx').on(t.excludedBy),
  ],
);
