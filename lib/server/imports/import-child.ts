/**
 * Runs one item import in a process of its own, for the web server (`import-process.ts`): the import's CPU work
 * then never stops the server from answering. Arguments: a JSON document { userId, studyId, file, format,
 * filename } (with kind: 'judge' and an optional run name `judge`, a judge run's import instead; with kind:
 * 'annotations', prior annotations). Prints one
 * JSON line: { ok: true, report } or { ok: false, code, message, fieldErrors, details }.
 */
import { closeDb, getDb } from '@/db/client';
import * as users from '@/db/queries/users';
import { DomainError, signInAgain } from '../errors';
import { checkBeforeEachCommit } from './import-staging';
import { importItems } from './imports';
import { importJudge } from './judge-import';
import { importAnnotations } from './prior-annotations';

type Job = { userId: number; studyId: number; file: string; format: string; filename: string } & JudgeJob;
type JudgeJob = { kind?: 'items' | 'judge' | 'annotations'; judge?: string };

class ServerGone extends Error {}

// The server that started this import is waiting for its answer. If it dies on its own (killed by the OOM killer,
// say), nobody will ever get that answer: stop before the next batch or the final transaction commits, and the
// import undoes what it wrote. A dead parent makes the kernel hand this process to another, so the parent pid
// changes at once; it is read again (a system call) before every commit. The import runs synchronously, so an
// event such as an IPC 'disconnect' would only be seen after it had ended.
const serverPid = process.ppid;
checkBeforeEachCommit(() => {
  if (process.ppid !== serverPid) throw new ServerGone(`the server (pid ${serverPid}) that started this import is gone`);
});

function run(job: Job) {
  // The server checked the caller's session; the account is read again, as on every call.
  const user = users.findUserById(getDb(), job.userId);
  if (!user || !user.active) throw signInAgain();
  const actor = { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
  if (job.kind === 'judge') return importJudge(actor, job.studyId, job.file, job.format, job.judge, job.filename);
  if (job.kind === 'annotations') return importAnnotations(actor, job.studyId, job.file, job.format, job.filename);
  return importItems(actor, job.studyId, job.file, job.format, job.filename);
}

let answer: unknown;
try {
  answer = { ok: true, report: run(JSON.parse(process.argv[2]) as Job) };
} catch (e) {
  answer =
    e instanceof ServerGone
      ? null
      : e instanceof DomainError
        ? { ok: false, code: e.code, message: e.message, fieldErrors: e.fieldErrors, details: e.details }
        : { ok: false, code: 'internal', message: String((e as Error)?.stack ?? e) };
} finally {
  closeDb();
}
// With the server gone there is no one to read an answer (its pipe is closed).
if (answer === null) process.exitCode = 1;
else process.stdout.write(`${JSON.stringify(answer)}\n`);
