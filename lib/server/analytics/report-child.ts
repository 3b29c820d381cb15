/**
 * The web server's report process (`report-worker.ts`): computes reports one after another, so the bootstrap's
 * seconds of CPU never stop the server from answering and no report waits for a process to start. Reads jobs as
 * JSON lines `{ id, job: { userId, studyId, name, options } }` on stdin; writes one JSON line per job,
 * `{ id, answer }` with `answer` = { ok: true, result } (the report) or { ok: false, code, message, fieldErrors,
 * details }. Ends when its stdin closes (the server ended).
 */
import readline from 'node:readline';
import { closeDb, getDb } from '@/db/client';
import * as users from '@/db/queries/users';
import type { ReportName } from './dto';
import { signInAgain } from '../errors';
import { answerOf } from '../imports/child-process';
import { computeReport, type ReportOptions } from './report';

type Job = { userId: number; studyId: number; name: ReportName; options: ReportOptions };

function compute(job: Job) {
  // The server checked the caller's session; the account is read again, as on every call.
  const user = users.findUserById(getDb(), job.userId);
  if (!user || !user.active) throw signInAgain();
  const actor = { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
  return computeReport(actor, job.studyId, job.name, job.options);
}

readline
  .createInterface({ input: process.stdin })
  .on('line', (line) => {
    const { id, job } = JSON.parse(line) as { id: number; job: Job };
    process.stdout.write(`${JSON.stringify({ id, answer: answerOf(() => compute(job)) })}\n`);
  })
  // The server ended: nothing else keeps this process alive once the database is closed and stdout has drained.
  .on('close', closeDb);
