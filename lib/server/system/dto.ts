/** The data lib/server/system hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */

export type BackupDto = { file: string; bytes: number; integrity: 'ok' };

export type HealthDto = { ok: boolean };
