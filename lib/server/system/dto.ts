/** The data lib/server/system hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */

/** A checked copy: `at` is the moment of the snapshot it holds, `counts` the rows of the main tables in it. */
export type BackupDto = { file: string; bytes: number; integrity: 'ok'; at: string; counts: Record<string, number> };

/** A verified scheduled backup found in the backup folder. */
export type GoodBackupDto = { file: string; name: string; bytes: number; at: string };

/** The result of one scheduled attempt (also written to the backup folder as last-backup.json). */
export type BackupRunDto =
  | { ok: true; at: string; finishedAt: string; ms: number; name: string; bytes: number; counts: Record<string, number>; deleted: string[] }
  | { ok: false; at: string; finishedAt: string; ms: number; error: string };

/** The backup schedule as the admin page sees it. */
export type BackupStatusDto = {
  /** false: CONCORD_BACKUP_EVERY is not set */
  scheduled: boolean;
  every: string | null;
  everyMs: number | null;
  keep: number;
  dir: string;
  newest: GoodBackupDto | null;
  last: BackupRunDto | null;
  running: boolean;
  /** when the next attempt is due (ISO), while the schedule runs */
  nextAt: string | null;
};

/**
 * The backup part of `GET /api/health`. Everyone (monitoring needs no account): whether backups are scheduled,
 * whether the newest attempt failed, and the time and age of the newest good backup. An admin's session also
 * gets the backup's file name (never its folder) and size.
 */
export type HealthBackupDto = {
  scheduled: boolean;
  /** 'ok': the newest attempt succeeded; 'failing': it failed; 'none': no backup yet; 'off': not scheduled */
  state: 'ok' | 'failing' | 'none' | 'off';
  newestAt: string | null;
  ageSeconds: number | null;
  name?: string;
  bytes?: number;
};

/** `backup` is left out for a caller who is not signed in. */
export type HealthDto = { ok: boolean; backup?: HealthBackupDto };

export type RestoreDto = {
  file: string;
  target: string;
  bytes: number;
  migrations: number;
  keptAs: string | null;
  counts: Record<string, number>;
};
