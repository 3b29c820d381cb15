import 'server-only';
import fs from 'node:fs';
import { getDb } from '@/db/client';
import { findImportFormat, formatIdsOf } from '@/lib/kinds/import-formats';
import type { Actor } from '../actor';
import { DomainError, invalid, type ErrorCode } from '../errors';
import { studyForStaff } from '../review/access';
import { ImportRejected } from './import-report';
import { importItems } from './imports';
import type { ImportReportDto, JudgeImportReportDto } from './dto';
import { importJudge } from './judge-import';
import { importAnnotations } from './prior-annotations';
import { runChild } from './child-process';
import type { ImportError } from '@/lib/validation/import-errors';

/** Files up to this size (about 1,000–2,000 flows) are imported in the server's own process: well under a second of work. */
export const IN_PROCESS_IMPORT_BYTES = 4 << 20;

type ChildAnswer<R> =
  | { ok: true; report: R }
  | { ok: false; code: ErrorCode | 'internal'; message: string; fieldErrors?: Record<string, string>; details?: unknown };

/**
 * Runs one import in the import process (`import-child.ts`) and gives its report, or throws its failure again here
 * as the import in this process would have thrown it: a file's errors as `ImportRejected`, a refusal as its
 * `DomainError`.
 */
async function importInChild<R>(job: object): Promise<R> {
  const answer = await runChild<ChildAnswer<R>>('import-child', job);
  if (answer.ok) return answer.report;
  if (answer.code === 'internal') throw new Error(`the import process failed: ${answer.message}`);
  const details = answer.details as { errors?: ImportError[]; errorCount?: number } | undefined;
  if (details?.errors && typeof details.errorCount === 'number') throw new ImportRejected(details.errors, details.errorCount);
  throw new DomainError(answer.code, answer.message, answer.fieldErrors, answer.details);
}

/**
 * Who may upload items to the study, and in which formats (the kind's item formats but those read from a dataset's
 * directory, which an upload cannot carry: those are named with the way to import them): checked before a byte of
 * the upload is stored.
 */
export function checkItemUpload(actor: Actor, studyId: number, format: string): void {
  const study = studyForStaff(getDb(), actor, studyId);
  const formats = formatIdsOf(study.kind, 'items', { upload: true });
  if (formats.includes(format)) return;
  const commandLineOnly = findImportFormat(study.kind, 'items', format)?.commandLineOnly;
  throw invalid(
    `Unknown format "${format}" for an upload to a ${study.kind} study; use one of: ${formats.join(', ')}.${commandLineOnly ? ` ${commandLineOnly}` : ''}`,
    { format: 'Unknown format' },
  );
}

/**
 * Imports items for a request of the web server. better-sqlite3 works synchronously, so a large import run in the
 * server would keep it from answering anyone until the import ended; a file above `IN_PROCESS_IMPORT_BYTES` is
 * imported by a child process instead (`import-child.ts`, same rules, same report and errors) while the server
 * goes on serving. The caller has checked the actor's rights on the study already; the child checks them again.
 */
export async function importItemsForRequest(
  actor: Actor,
  studyId: number,
  file: string,
  format: string,
  filename: string,
  inProcessBytes = IN_PROCESS_IMPORT_BYTES,
): Promise<ImportReportDto> {
  checkItemUpload(actor, studyId, format);
  if (fs.statSync(file).size <= inProcessBytes) return importItems(actor, studyId, file, format, filename);
  return importInChild<ImportReportDto>({ userId: actor.id, studyId, file, format, filename });
}

/**
 * Judge files are imported in the server's own process only up to this size. Their lines are short (ten verdicts
 * in some 200 bytes), and checking and writing them costs about 50 µs a verdict: 64 KB, some 3,000 verdicts, is a
 * tenth of a second of work; above it, a child process (which costs a second or so to start) does the work.
 */
export const IN_PROCESS_JUDGE_BYTES = 64 << 10;

/** Imports a judge run for a request of the web server, like `importItemsForRequest`: a large file in a child process. */
export async function importJudgeForRequest(
  actor: Actor,
  studyId: number,
  file: string,
  format: string,
  judge: string | undefined,
  filename: string,
  inProcessBytes = IN_PROCESS_JUDGE_BYTES,
): Promise<JudgeImportReportDto> {
  if (fs.statSync(file).size <= inProcessBytes) return importJudge(actor, studyId, file, format, judge, filename);
  return importInChild<JudgeImportReportDto>({ kind: 'judge', userId: actor.id, studyId, file, format, filename, judge });
}

/**
 * Imports prior annotations for a request of the web server: a file up to `IN_PROCESS_IMPORT_BYTES` in the
 * server's process, a larger one by the import process (they are written in one transaction either way).
 */
export async function importAnnotationsForRequest(
  actor: Actor,
  studyId: number,
  file: string,
  format: string,
  filename: string,
  inProcessBytes = IN_PROCESS_IMPORT_BYTES,
): Promise<{ records: number; inserted: number; unchanged: number }> {
  if (fs.statSync(file).size <= inProcessBytes) return importAnnotations(actor, studyId, file, format, filename);
  return importInChild<{ records: number; inserted: number; unchanged: number }>({
    kind: 'annotations',
    userId: actor.id,
    studyId,
    file,
    format,
    filename,
  });
}
