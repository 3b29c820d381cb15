/**
 * Computes one report in a process of its own, for the web server (`report-process.ts`): the bootstrap's seconds
 * of CPU then never stop the server from answering. Argument: a JSON document { userId, studyId, name, options }.
 * Prints one JSON line: { ok: true, result } (the report) or { ok: false, code, message, fieldErrors, details }.
 */
import { closeDb, getDb } from '@/db/client';
import * as users from '@/db/queries/users';
import type { ReportName } from './dto';
import { DomainError } from '../errors';
import { printAnswer } from '../imports/tsx-child';
import { computeReport, type ReportOptions } from './report';

type Job = { userId: number; studyId: number; name: ReportName; options: ReportOptions };

printAnswer(() => {
  const job = JSON.parse(process.argv[2]) as Job;
  // The server checked the caller's session; the account is read again, as on every call.
  const user = users.findUserById(getDb(), job.userId);
  if (!user || !user.active) throw new DomainError('unauthenticated', 'Please sign in again.');
  const actor = { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
  return computeReport(actor, job.studyId, job.name, job.options);
}, closeDb);
