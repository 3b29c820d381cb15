import 'server-only';
import path from 'node:path';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import { findStudy } from '@/db/queries/studies';
import { contentHash } from '@/lib/io/canonical';
import { annotationRecords, flowRecords, pairwiseRecords, type RecordResult } from '@/lib/io/records';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { IMPORT_FORMATS } from '@/lib/validation/studies';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected, MAX_REPORTED_ERRORS } from './import-report';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import { checkPriorAnnotations, writePriorAnnotations } from './prior-annotations';
import { importRubricItems } from './rubric-imports';
import type { ImportReportDto } from './dto';

export { ImportRejected };

type Identified = { id: string; steps?: unknown[]; principles?: string[]; a?: PairwiseItem['a']; b?: PairwiseItem['b'] };

function recordsFor(kind: string, file: string, format: string): Generator<RecordResult<Identified>> {
  if (kind === 'flow_review') return flowRecords(file, format as 'concord' | 'mathdial');
  if (kind === 'pairwise') return pairwiseRecords(file, format as 'concord' | 'bridge' | 'pandalm');
  throw invalid(`Importing items into a ${kind} study is not supported.`);
}

/**
 * Pass 1, read-only: validates every record, checks ids against the file itself and against the study.
 * Collects every problem so the report names each bad line.
 */
function validatePass(db: Db, studyId: number, studyOpen: boolean, records: Iterable<RecordResult<Identified>>) {
  const firstLine = new Map<string, number>();
  const principles = new Map<string, string[] | undefined>();
  const collector = new ErrorCollector();
  const fail = collector.add;
  let records_ = 0;
  let unchanged = 0;
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
    principles.set(id, rec.value.principles);
    const hash = itemsQ.itemContentHash(db, studyId, id);
    if (hash === undefined) {
      if (studyOpen) fail({ line: rec.line, path: 'id', message: `"${id}" is new, but items cannot be added once the study is open` });
    } else if (hash === contentHash(rec.value)) {
      unchanged++;
    } else {
      fail({ line: rec.line, path: 'id', message: `"${id}" already exists in this study with different content; items are immutable` });
    }
  }
  return { errors: collector.errors, errorCount: collector.errorCount, records: records_, unchanged, principles };
}

/** Items written per transaction: each batch holds the write lock for a few milliseconds. */
const BATCH_ITEMS = 500;

/**
 * Imports a file of items into a study, all or nothing: a first read-only pass validates every line; only a
 * clean file is read again and written. The items go in by short batches (nobody else waits long for the
 * database, even during a KMP-Pile-sized import) under an import row that stays 'staging' until one last
 * transaction makes it 'done'; a failure undoes the batches, and an import whose process died is undone by the
 * next start or import (`import-staging.ts`). Identical re-imports are no-ops.
 */
export function importItems(actor: Actor, studyId: number, file: string, format: string, filename = path.basename(file)) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.kind === 'rubric') return importRubricItems(actor, study, file, format, filename);
  const formats: readonly string[] = IMPORT_FORMATS[study.kind as keyof typeof IMPORT_FORMATS] ?? [];
  if (!formats.includes(format)) {
    throw invalid(`Unknown format "${format}" for a ${study.kind} study; use one of: ${formats.join(', ')}.`, { format: 'Unknown format' });
  }
  if (study.status === 'closed') throw invalid('The study is closed.');
  if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
  const check = validatePass(db, studyId, study.status === 'open', recordsFor(study.kind, file, format));
  // PandaLM's test set carries its three annotators' labels: they come in with the items, as prior annotations.
  const withAnnotations = study.kind === 'pairwise' && format === 'pandalm';
  const priors = withAnnotations ? checkPriorAnnotations(db, study, annotationRecords(file, 'pandalm'), check.principles) : null;
  const errorCount = check.errorCount + (priors?.errorCount ?? 0);
  if (errorCount) throw new ImportRejected([...check.errors, ...(priors?.errors ?? [])].slice(0, MAX_REPORTED_ERRORS), errorCount);
  if (check.records === 0) throw invalid('The file has no records.');

  const importId = inTransaction(db, () => {
    if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
    // Opened (or closed) while the file was being checked: the check no longer holds. Once staging, it cannot be.
    if (findStudy(db, studyId)?.status !== study.status)
      throw conflict('The study changed while the file was being checked; import it again.');
    return beginStaging(db, { studyId, kind: 'items', format, filename, createdBy: actor.id });
  });
  try {
    let position = itemsQ.lastItemPosition(db, studyId) + 1;
    let inserted = 0;
    let unchanged = 0;
    let records = 0;
    // Parsing, checking and hashing happen outside the write lock; a batch transaction only looks up and inserts.
    let batch: { v: Identified; json: string; hash: string }[] = [];
    const flush = () => {
      inTransaction(db, () => {
        for (const { v, json, hash } of batch) {
          const prior = itemsQ.itemContentHash(db, studyId, v.id);
          if (prior === hash) {
            unchanged++;
            continue;
          }
          if (prior !== undefined) throw invalid(`"${v.id}" changed during the import. Nothing was imported.`);
          itemsQ.insertItem(db, {
            studyId,
            externalId: v.id,
            position: position++,
            payload: json,
            contentHash: hash,
            stepCount: v.steps?.length ?? null,
            sourceA: v.a?.source ?? null,
            sourceB: v.b?.source ?? null,
            importId,
          });
          inserted++;
        }
        heartbeat(db, importId);
      });
      batch = [];
    };
    for (const rec of recordsFor(study.kind, file, format)) {
      records++;
      // The file changed between the passes: refuse rather than guess.
      if (!rec.ok) throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      batch.push({ v: rec.value, json: JSON.stringify(rec.value), hash: contentHash(rec.value) });
      if (batch.length === BATCH_ITEMS) flush();
    }
    flush();
    if (records !== check.records) throw invalid('The file changed while it was being imported. Nothing was imported.');
    return inTransaction(db, (): ImportReportDto => {
      const annotations = withAnnotations ? writePriorAnnotations(db, actor, study, annotationRecords(file, 'pandalm')) : undefined;
      finishStaging(db, importId, { records, inserted, unchanged });
      audit(db, { userId: actor.id, action: 'items_imported', studyId, detail: { filename, format, records, inserted, unchanged } });
      return { records, inserted, unchanged, ...(annotations ? { annotations } : {}) };
    });
  } catch (e) {
    undoFailedImport(db, importId);
    throw e;
  }
}
