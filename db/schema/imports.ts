/** Imports of items, prior annotations and judge runs. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { studies } from './studies';

export const imports = sqliteTable(
  'imports',
  {
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
  },
  (t) => [index('imports_study_idx').on(t.studyId, t.state), index('imports_created_by_idx').on(t.createdBy)],
);
