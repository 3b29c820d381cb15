import type * as z from 'zod';
import { zodIssuesToImportErrors, type ImportError } from '@/lib/validation/import-errors';
import { readJsonlSync, type JsonlOptions } from './jsonl';
import type { RecordResult } from './record-result';

/*
 * The shared core of every import reader: each record in file order, either its value — which has passed the
 * target zod schema — or every problem found in it. Synchronous, so the importer can run inside a better-sqlite3
 * transaction. Which formats a kind reads, and with which adapter, is the kind's (`lib/kinds/<kind>/records.ts`).
 *
 * JSONL sources number records by line. JSON-array sources (Bridge, PandaLM, MRBench, AITutor-EvalKit) number them
 * by 1-based position in the array, and their messages start with "record N" so a report never suggests a line
 * number; where one record yields several items (MRBench's dialogues), the message names the item too:
 * "record 12 (item 4642-…-Sonnet), labels.actionability: …". Line 0 is a problem with the file as a whole.
 */

export type { RecordResult } from './record-result';

/** How messages refer to a record: by line, by position in the array, or by position and item. */
export type Numbering = 'line' | 'record' | 'record-and-item';

/** A reader of one format: the validated records of the file at `path`. */
export type RecordReader<T, A extends unknown[] = []> = (path: string, ...args: A) => Generator<RecordResult<T>>;

function subjectOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as { id?: unknown; item?: unknown };
  return typeof v.item === 'string' ? v.item : typeof v.id === 'string' ? v.id : null;
}

function recordMessage(e: ImportError, subject: string | null): ImportError {
  if (e.line === 0) return e;
  const who = `record ${e.line}${subject ? ` (item ${subject})` : ''}`;
  return { ...e, message: `${who}${e.path ? `, ${e.path}` : ''}: ${e.message}` };
}

/** Validates a source's records against `schema`; `numbering` says how messages refer to a record. */
export function* validated<T>(
  schema: z.ZodType<T>,
  results: Iterable<RecordResult<unknown>>,
  numbering: Numbering,
): Generator<RecordResult<T>> {
  for (const r of results) {
    let failed: Extract<RecordResult<unknown>, { ok: false }>;
    let subject: string | null = null;
    if (r.ok) {
      const parsed = schema.safeParse(r.value, { reportInput: true });
      if (parsed.success) {
        yield { line: r.line, ok: true, value: parsed.data };
        continue;
      }
      failed = { line: r.line, ok: false, errors: zodIssuesToImportErrors(r.line, parsed.error) };
      subject = subjectOf(r.value);
    } else {
      failed = r;
      subject = r.unreadableVerdict?.item ?? null;
    }
    if (numbering === 'line') yield failed;
    else yield { ...failed, errors: failed.errors.map((e) => recordMessage(e, numbering === 'record-and-item' ? subject : null)) };
  }
}

/** JSONL lines as unvalidated values, read errors as failures. */
export function* jsonlValues(path: string, opts?: JsonlOptions): Generator<RecordResult<unknown>> {
  for (const r of readJsonlSync(path, opts)) {
    yield r.ok ? r : { line: r.line, ok: false, errors: [r.error] };
  }
}

/** A Concord JSONL file: one record per line, each checked against `schema`. */
export function concordRecords<T>(schema: z.ZodType<T>, path: string, opts?: JsonlOptions): Generator<RecordResult<T>> {
  return validated(schema, jsonlValues(path, opts), 'line');
}

/** The reader of `format` in a kind's reader table, or an error listing the formats it has. */
export function readerFor<R>(readers: Record<string, R>, format: string, what: string): R {
  if (!Object.hasOwn(readers, format)) {
    throw new Error(`Unknown ${what} format "${format}"; use ${Object.keys(readers).join(', ')}.`);
  }
  return readers[format];
}
