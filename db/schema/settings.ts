/** Settings of the installation as a whole. */
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Settings of the installation as a whole, one row per key (e.g. `demo`, written by the demo seed). */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
