import 'server-only';
import { backupConfig, databasePath } from '@/lib/env';
import type { Actor } from '../actor';
import { forbidden } from '../errors';
import { runChild } from '../imports/child-process';
import { goodBackups, lastBackupRun } from './backup';
import { serverProcess } from './server-process';
import type { BackupRunDto, BackupStatusDto, GoodBackupDto, HealthBackupDto } from './dto';

export type ScheduleConfig = { source: string; every: string | null; everyMs: number | null; keep: number; dir: string };

/** One attempt in a child process (see backup-child.ts), at a lower priority than the server's requests. */
const inChild = (source: string, dir: string, keep: number, now: Date) =>
  runChild<BackupRunDto>('backup-child', { source, dir, keep, now: now.toISOString() }, { nice: 10 });

/**
 * The server's backup schedule: a verified backup every `everyMs` (the first one at once when the newest good
 * backup is older than that, or missing), the newest `keep` kept. What it knows (the newest good backup, the
 * newest attempt) is held in memory, so that `/api/health` reads no file and no table to report it.
 */
export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<BackupRunDto> | null = null;
  private stopped = false;
  newest: GoodBackupDto | null;
  last: BackupRunDto | null;
  nextAt: Date | null = null;

  constructor(
    readonly config: ScheduleConfig,
    private readonly attempt: (source: string, dir: string, keep: number, now: Date) => Promise<BackupRunDto> = inChild,
    /**
     * False in a server process other than the one with the timer: that process writes the backups, so what this
     * one knows is read again from the backup folder (at most once a second) when asked, not kept from start-up.
     */
    readonly keepsTimer = true,
  ) {
    this.newest = goodBackups(config.dir)[0] ?? null;
    this.last = lastBackupRun(config.dir);
  }

  private readAt = Date.now();

  /** In a process without the timer: the newest good backup and attempt as the folder has them now. */
  private refresh(now = Date.now()) {
    if (this.keepsTimer || this.running || now - this.readAt < 1000) return;
    this.readAt = now;
    this.newest = goodBackups(this.config.dir)[0] ?? null;
    this.last = lastBackupRun(this.config.dir);
  }

  /** Starts the timer (no-op when no schedule is configured, or in a process that does not keep it). */
  start(now = Date.now()) {
    if (!this.config.everyMs || !this.keepsTimer) return;
    this.stopped = false;
    const since = this.newest ? now - Date.parse(this.newest.at) : Infinity;
    this.arm(Math.max(0, Math.min(this.config.everyMs, this.config.everyMs - since)));
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nextAt = null;
  }

  private arm(ms: number) {
    if (this.stopped) return;
    this.nextAt = new Date(Date.now() + ms);
    this.timer = setTimeout(() => {
      void this.runNow().finally(() => this.arm(this.config.everyMs!));
    }, ms);
    this.timer.unref();
  }

  /** One attempt now (an attempt already under way is joined, not doubled). */
  runNow(): Promise<BackupRunDto> {
    if (this.running) return this.running;
    const now = new Date();
    this.running = this.attempt(this.config.source, this.config.dir, this.config.keep, now)
      .catch((e: unknown): BackupRunDto => ({
        ok: false,
        at: now.toISOString(),
        finishedAt: new Date().toISOString(),
        ms: 0,
        error: String((e as Error)?.message ?? e),
      }))
      .then((run) => {
        this.last = run;
        this.newest = goodBackups(this.config.dir)[0] ?? null;
        if (!run.ok) console.error(`Concord: the scheduled backup failed: ${run.error}`);
        return run;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  status(): BackupStatusDto {
    this.refresh();
    const { every, everyMs, keep, dir } = this.config;
    // Without the timer, the next attempt is the timer's: a period after the newest good backup.
    const nextAt = this.keepsTimer ? this.nextAt : everyMs && this.newest ? new Date(Date.parse(this.newest.at) + everyMs) : null;
    return {
      scheduled: !!everyMs,
      every,
      everyMs,
      keep,
      dir,
      newest: this.newest,
      last: this.last,
      running: !!this.running,
      nextAt: nextAt?.toISOString() ?? null,
    };
  }

  /** What `/api/health` shows (see `HealthBackupDto`); `admin` adds the file's name and size. */
  health(admin: boolean, now = Date.now()): HealthBackupDto {
    this.refresh(now);
    const scheduled = !!this.config.everyMs;
    const state = !scheduled ? 'off' : this.last && !this.last.ok ? 'failing' : this.newest ? 'ok' : 'none';
    const out: HealthBackupDto = {
      scheduled,
      state,
      newestAt: this.newest?.at ?? null,
      ageSeconds: this.newest ? Math.round((now - Date.parse(this.newest.at)) / 1000) : null,
    };
    if (admin && this.newest) Object.assign(out, { name: this.newest.name, bytes: this.newest.bytes });
    return out;
  }
}

const globalForBackups = globalThis as unknown as { concordBackups?: BackupSchedule };

/** The process's schedule, from the environment (CONCORD_BACKUP_EVERY, _KEEP, _DIR). */
export function backupSchedule(): BackupSchedule {
  if (!globalForBackups.concordBackups) {
    const keepsTimer = serverProcess().keepsSchedule;
    globalForBackups.concordBackups = new BackupSchedule({ source: databasePath(), ...backupConfig() }, inChild, keepsTimer);
  }
  return globalForBackups.concordBackups;
}

/**
 * For the server's start-up: begins the schedule when one is configured, in the one process of the server that
 * keeps it (server-process.ts); the others read its results from the backup folder.
 */
export function startBackupSchedule() {
  const schedule = backupSchedule();
  if (!schedule.keepsTimer) return;
  schedule.start();
  if (schedule.config.everyMs) {
    console.log(
      `Concord: a verified backup every ${schedule.config.every} into ${schedule.config.dir}, the newest ${schedule.config.keep} kept.`,
    );
  }
}

/** For the admin page: the schedule, the newest good backup (with its folder) and the newest attempt. */
export function backupStatusFor(actor: Actor): BackupStatusDto {
  if (actor.role !== 'admin') throw forbidden('Only an admin can see the backups.');
  return backupSchedule().status();
}

/**
 * "Back up now" on the admin page: one verified backup into the backup folder at once, scheduled or not (joined if
 * one is already being written), with the same checks and the same newest-N rule as the schedule's.
 */
export async function backUpNow(actor: Actor): Promise<BackupRunDto> {
  if (actor.role !== 'admin') throw forbidden('Only an admin can back up the database.');
  return backupSchedule().runNow();
}
