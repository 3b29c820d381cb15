/** The audit log of what was done, by whom. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { createdAt } from './columns';

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
  (t) => [index('audit_log_study_idx').on(t.studyId, t.createdAt), index('audit_log_user_idx').on(t.userId)],
);
