import 'server-only';
import { getDb } from '@/db/client';
import { databaseAnswers } from '@/db/queries/system';
import type { Actor } from '../actor';
import { backupSchedule } from './backup-schedule';
import type { HealthDto } from './dto';

/**
 * Whether the database answers, and how backups stand (`HealthBackupDto`): for process managers, monitoring and
 * tests. It reveals nothing about the data. The backup state only to someone signed in (that backups are off or
 * failing tells a stranger when losing data would hurt most: issue 26), the backup's file name and size only to an
 * admin. Cheap: one `SELECT 1`; the backup state is held in memory (a server process without the
 * backup timer reads the backup folder at most once a second: backup-schedule.ts).
 */
export function health(actor: Actor | null = null): HealthDto {
  let ok: boolean;
  try {
    ok = databaseAnswers(getDb());
  } catch {
    ok = false;
  }
  return actor ? { ok, backup: backupSchedule().health(actor.role === 'admin') } : { ok };
}
