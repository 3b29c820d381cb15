/**
 * Runs one scheduled backup in a process of its own, for the web server (`backup-schedule.ts`): counting the
 * main tables, copying and checking a large database is seconds of synchronous SQLite work that would otherwise
 * keep the server from answering. Argument: a JSON document { source, dir, keep, now }. Prints one JSON line, the
 * attempt's result (`BackupRunDto`), or { ok: false, error } when the attempt could not even be recorded.
 */
import { scheduledBackup } from './backup';

type Job = { source: string; dir: string; keep: number; now: string };

async function main() {
  const job = JSON.parse(process.argv[2]) as Job;
  let answer: unknown;
  try {
    answer = await scheduledBackup(job.source, job.dir, job.keep, new Date(job.now));
  } catch (e) {
    answer = { ok: false, at: job.now, finishedAt: new Date().toISOString(), ms: 0, error: (e as Error).message };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  process.exit(0);
}

void main();
