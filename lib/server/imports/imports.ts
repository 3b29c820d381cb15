import 'server-only';
import path from 'node:path';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import { findStudy } from '@/db/queries/studies';
import { contentHash } from '@/lib/io/canonical';
import type { RecordResult } from '@/lib/io/record-result';
import { studyKind } from '@/lib/kinds/registry';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { importFormatFor } from './formats';
import { ErrorCollector, ImportRejected, MAX_REPORTED_ERRORS } from './import-report';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import { checkPriorAnnotations, writePriorAnnotations } from './prior-annotations';
import type { ImportReportDto } from './dto';
import { checkImportedGold, writeImportedGold } from '../review/gold-import';

export { ImportRejected };

type Item = { id: string };

/**
 * Pass 1, read-only: validates every record, checks ids against the file itself and against the study.
 * Collects every problem so the report names each bad line. `keepItems`: the items are returned too, for the prior
 * annotations that came in the same file (only then: a file of millions of items is streamed, not held).
 */
function validatePass(db: Db, studyId: number, studyOpen: boolean, records: Iterable<RecordResult<Item>>, keepItems: boolean) {
  const firstLine = new Map<string, number>();
  const items = new Map<string, Item>();
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
    if (keepItems) items.set(id, rec.value);
    const hash = itemsQ.itemContentHash(db, studyId, id);
    if (hash === undefined) {
      if (studyOpen) fail({ line: rec.line, path: 'id', message: `"${id}" is new, but items cannot be added once the study is open` });
    } else if (hash === contentHash(rec.value)) {
      unchanged++;
    } else {
      fail({ line: rec.line, path: 'id', message: `"${id}" already exists in this study with different content; items are immutable` });
    }
  }
  return { errors: collector.errors, errorCount: collector.errorCount, records: records_, unchanged, items };
}

/** Items written per transaction: each batch holds the write lock for a few milliseconds. */
const BATCH_ITEMS = 500;

/**
 * Imports a file of items into a study of any kind, all or nothing: a first read-only pass validates every line;
 * only a clean file is read again and written. The items go in by short batches (nobody else waits long for the
 * database, even during a KMP-Pile-sized import) under an import row that stays 'staging' until one last
 * transaction makes it 'done'; a failure undoes the batches, and an import whose process died is undone by the
 * next start or import (`import-staging.ts`). Identical re-imports are no-ops. Formats that carry prior
 * annotations (PandaLM's annotators, MRBench's gold labels) bring them in with the items, checked with them and
 * written in the same final transaction. What differs by kind — the readers, the stored payload and columns — is
 * the kind's imports facet (`lib/kinds/<kind>/imports.ts`).
 */
export function importItems(actor: Actor, studyId: number, file: string, format: string, filename = path.basename(file)): ImportReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const facet = studyKind(study.kind).imports;
  const fmt = importFormatFor(study, 'items', format);
  const kind = facet.items!;
  const withAnnotations = fmt.bringsAnnotations ? facet.annotations : null;
  if (study.status === 'closed') throw invalid('The study is closed.');
  if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
  const check = validatePass(db, studyId, study.status === 'open', kind.read(file, format, study), withAnnotations !== null);
  const priors = withAnnotations
    ? checkPriorAnnotations(db, study, withAnnotations, withAnnotations.read(file, format, study), check.items)
    : null;
  // Gold labels ride on Concord item lines (decision 0030), checked with the file's other problems.
  const gold = format === 'concord' ? checkImportedGold(study, file) : null;
  const errorCount = check.errorCount + (priors?.errorCount ?? 0) + (gold?.errors.length ?? 0);
  if (errorCount)
    throw new ImportRejected(
      [...check.errors, ...(priors?.errors ?? []), ...(gold?.errors ?? [])].slice(0, MAX_REPORTED_ERRORS),
      errorCount,
    );
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
    let batch: { v: Item; json: string; hash: string }[] = [];
    const flush = () => {
      inTransaction(db, () => {
        for (const { v, json, hash } of batch) {
          const prior = itemsQ.itemContentHash(db, studyId, v.id);
          if (prior === hash) {
            unchanged++;
            continue;
          }
          if (prior !== undefined) throw invalid(`"${v.id}" changed during the import. Nothing was imported.`);
          kind.insert(db, { studyId, externalId: v.id, position: position++, payload: json, contentHash: hash, importId }, v);
          inserted++;
        }
        heartbeat(db, importId);
      });
      batch = [];
    };
    for (const rec of kind.read(file, format, study)) {
      records++;
      // The file changed between the passes: refuse rather than guess.
      if (!rec.ok) throw invalid(`The file changed while it was being imported (${kind.recordWord} ${rec.line}). Nothing was imported.`);
      batch.push({ v: rec.value, json: kind.payload(rec.value), hash: contentHash(rec.value) });
      if (batch.length === BATCH_ITEMS) flush();
    }
    flush();
    if (records !== check.records) throw invalid('The file changed while it was being imported. Nothing was imported.');
    return inTransaction(db, (): ImportReportDto => {
      const annotations = withAnnotations
        ? writePriorAnnotations(db, actor, study, withAnnotations, withAnnotations.read(file, format, study))
        : undefined;
      if (gold?.gold.length) writeImportedGold(db, study, gold.gold, actor.id);
      finishStaging(db, importId, { records, inserted, unchanged });
      audit(db, { userId: actor.id, action: 'items_imported', studyId, detail: { filename, format, records, inserted, unchanged } });
      return { records, inserted, unchanged, ...(annotations ? { annotations } : {}) };
    });
  } catch (e) {
    undoFailedImport(db, importId);
    throw e;
  }
}
