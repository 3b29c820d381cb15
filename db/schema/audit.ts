/** The audit log of what was done, by whom. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { apiTokens, users } from './accounts';
import { createdAt } from './columns';

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id),
    // The API token the change came through; null for the screens and the CLI.
    tokenId: integer('token_id').references(() => apiTokens.id),
    action: text('action').notNull(),
    studyId: integer('study_id'),
    objectId: integer('object_id'),
    detail: text('detail', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_study_idx').on(t.studyId, t.createdAt),
    index('audit_log_user_idx').on(t.userId),
    index('audit_log_token_idx').on(t.tokenId),
  ],
);
