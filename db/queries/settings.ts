import { stmt, type Db } from '../client';

/** The value of an installation setting, or null when it was never written. */
export const getSetting = (db: Db, key: string) =>
  (stmt(db, 'SELECT value FROM app_settings WHERE key = ?').pluck().get(key) as string | undefined) ?? null;

export const setSetting = (db: Db, key: string, value: string) =>
  stmt(db, 'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
