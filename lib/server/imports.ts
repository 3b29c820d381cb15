import 'server-only';
import path from 'node:path';
import { getDb, inTransaction, type Db } from '@/db/client';
import { contentHash } from '@/lib/io/canonical';
import { flowRecords, type RecordResult } from '@/lib/io/records';
import type { ImportError } from '@/lib/validation/import-errors';
import { IMPORT_FORMATS } from '@/lib/validation/studies';
import type { Actor } from './actor';
import { studyForStaff } from './access';
import { audit } from './audit';
import { DomainError, invalid } from './errors';

export type ImportReportDto = {
  records: number;
  inserted: number;
  unchanged: number;
};

/** How many bad lines a report lists; the count covers all of them. */
const MAX_REPORTED_ERRORS = 500;

export class ImportRejected extends DomainError {
  constructor(
    readonly errors: ImportError[],
    readonly errorCount: number,
  ) {
    super('invalid', `The file was refused: ${errorCount} problem${errorCount === 1 ? '' : 's'} found. Nothing was imported.`, undefined, {
      errors,
      errorCount,
    });
  }
}

type Identified = { id: string; steps?: unknown[] };

function recordsFor(kind: string, file: string, format: string): Generator<RecordResult<Identified>> {
  if (kind === 'flow_review') return flowRecords(file, format as 'concord' | 'mathdial');
  throw invalid(`Importing items into a ${kind} study is not supported.`);
}

/**
 * Pass 1, read-only: validates every record, checks ids against the file itself and against the study.
 * Collects every problem so the report names each bad line.
 */
function validatePass(db: Db, studyId: number, studyOpen: boolean, records: Iterable<RecordResult<Identified>>) {
  const existing = db.$client.prepare('SELECT content_hash FROM items WHERE study_id = ? AND external_id = ?').pluck();
  const firstLine = new Map<string, number>();
  const errors: ImportError[] = [];
  let errorCount = 0;
  let records_ = 0;
  let unchanged = 0;
  const fail = (e: ImportError) => {
    errorCount++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push(e);
  };
  for (const rec of records) {
    records_++;
    if (!rec.ok) {
      rec.errors.forEach(fail);
      continue;
    }
    const id = rec.value.id;
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      fail({ line: rec.line, path: 'id', message: `duplicate id "${id}" (first on line ${seen})` });
      continue;
    }
    firstLine.set(id, rec.line);
    const hash = existing.get(studyId, id) as string | undefined;
    if (hash === undefined) {
      if (studyOpen) fail({ line: rec.line, path: 'id', message: `"${id}" is new, but items cannot be added once the study is open` });
    } else if (hash === contentHash(rec.value)) {
      unchanged++;
    } else {
      fail({ line: rec.line, path: 'id', message: `"${id}" already exists in this study with different content; items are immutable` });
    }
  }
  return { errors, errorCount, records: records_, unchanged };
}

/**
 * Imports a file of items into a study, all or nothing: a first read-only pass validates every line; only a
 * clean file is read again and written, in one immediate transaction. Identical re-imports are no-ops.
 */
export function importItems(actor: Actor, studyId: number, file: string, format: string, filename = path.basename(file)) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const formats: readonly string[] = IMPORT_FORMATS[study.kind as keyof typeof IMPORT_FORMATS] ?? [];
  if (!formats.includes(format)) {
    throw invalid(`Unknown format "${format}" for a ${study.kind} study; use one of: ${formats.join(', ')}.`, { format: 'Unknown format' });
  }
  if (study.status === 'closed') throw invalid('The study is closed.');
  const check = validatePass(db, studyId, study.status === 'open', recordsFor(study.kind, file, format));
  if (check.errorCount) throw new ImportRejected(check.errors, check.errorCount);
  if (check.records === 0) throw invalid('The file has no records.');

  const write = db.$client.transaction((): ImportReportDto => {
    const exists = db.$client.prepare('SELECT content_hash FROM items WHERE study_id = ? AND external_id = ?').pluck();
    const insert = db.$client.prepare(
      'INSERT INTO items (study_id, external_id, position, payload, content_hash, step_count) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let position =
      (db.$client.prepare('SELECT coalesce(max(position), 0) FROM items WHERE study_id = ?').pluck().get(studyId) as number) + 1;
    let inserted = 0;
    let unchanged = 0;
    let records = 0;
    for (const rec of recordsFor(study.kind, file, format)) {
      records++;
      // The file changed between the passes, or another import raced this one: refuse rather than guess.
      if (!rec.ok) throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      const hash = contentHash(rec.value);
      const prior = exists.get(studyId, rec.value.id) as string | undefined;
      if (prior === hash) {
        unchanged++;
        continue;
      }
      if (prior !== undefined) throw invalid(`"${rec.value.id}" changed during the import. Nothing was imported.`);
      insert.run(studyId, rec.value.id, position++, JSON.stringify(rec.value), hash, rec.value.steps?.length ?? null);
      inserted++;
    }
    if (records !== check.records) throw invalid('The file changed while it was being imported. Nothing was imported.');
    db.$client
      .prepare(
        'INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(studyId, 'items', format, filename, records, inserted, unchanged, actor.id);
    audit(db, { userId: actor.id, action: 'items_imported', studyId, detail: { filename, format, records, inserted, unchanged } });
    return { records, inserted, unchanged };
  });
  return write.immediate();
}
