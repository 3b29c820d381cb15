import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as rubricQ from '@/db/queries/rubric-imports';
import { findStudy, type StudyRow } from '@/db/queries/studies';
import { canonicalJson, contentHash } from '@/lib/io/canonical';
import type { RecordResult } from '@/lib/io/record-result';
import { RUBRIC_ITEM_FORMATS, rubricAnnotationRecords, rubricItemRecords } from '@/lib/io/rubric-records';
import type { RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected, MAX_REPORTED_ERRORS } from './import-report';
import { checkRubricAnnotations, writeRubricAnnotations } from './rubric-annotation-import';
import { oneOf, studyCatalog } from './rubric-codebook';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import type { ImportReportDto } from './dto';

/*
 * Imports into a rubric study (DESIGN "Rubric item", "Rubric dimensions"): items, prior annotations and judge runs,
 * on the same all-or-nothing path as the other kinds (a read-only pass that lists every bad line, then short
 * batches under a staging import). Labels arrive as names, checked against the study's catalog by the record
 * readers (`lib/io/rubric-records.ts`), and are stored as codes: the dimension's index in the catalog and the
 * label's index in its label set (docs/decisions/0010-rubric-labels.md).
 */

/** Items written per transaction: each batch holds the write lock for a few milliseconds. */
const BATCH_ITEMS = 500;

function validateItems(db: Db, studyId: number, studyOpen: boolean, records: Iterable<RecordResult<RubricItem>>) {
  const firstLine = new Map<string, number>();
  const collector = new ErrorCollector();
  let count = 0;
  let unchanged = 0;
  for (const rec of records) {
    count++;
    if (!rec.ok) {
      rec.errors.forEach(collector.add);
      continue;
    }
    const id = rec.value.id;
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      collector.add({ line: rec.line, path: 'id', message: `duplicate id "${id}" (first on line ${seen})` });
      continue;
    }
    firstLine.set(id, rec.line);
    const hash = itemsQ.itemContentHash(db, studyId, id);
    if (hash === undefined) {
      if (studyOpen)
        collector.add({ line: rec.line, path: 'id', message: `"${id}" is new, but items cannot be added once the study is open` });
    } else if (hash === contentHash(rec.value)) unchanged++;
    else
      collector.add({
        line: rec.line,
        path: 'id',
        message: `"${id}" already exists in this study with different content; items are immutable`,
      });
  }
  return { collector, records: count, unchanged, ids: new Set(firstLine.keys()) };
}

/**
 * Imports rubric items, all or nothing. MRBench files (`mrbench`, `mrbench-v1`) bring their published labels
 * along, as prior annotations by the account `mrbench-gold`; they are checked with the items and written in the
 * same final transaction.
 */
export function importRubricItems(actor: Actor, study: StudyRow, file: string, format: string, filename: string): ImportReportDto {
  const db = getDb();
  const fmt = oneOf(RUBRIC_ITEM_FORMATS, format, 'items');
  const catalog = studyCatalog(study);
  if (study.status === 'closed') throw invalid('The study is closed.');
  if (runningImport(db, study.id)) throw conflict(ANOTHER_IMPORT);
  const check = validateItems(db, study.id, study.status === 'open', rubricItemRecords(file, fmt));
  const gold = fmt === 'mrbench' || fmt === 'mrbench-v1' ? fmt : null;
  const priors = gold ? checkRubricAnnotations(db, study, rubricAnnotationRecords(file, gold, catalog), check.ids) : null;
  const errorCount = check.collector.errorCount + (priors?.errorCount ?? 0);
  if (errorCount)
    throw new ImportRejected([...check.collector.errors, ...(priors?.errors ?? [])].slice(0, MAX_REPORTED_ERRORS), errorCount);
  if (check.records === 0) throw invalid('The file has no records.');

  const importId = inTransaction(db, () => {
    if (runningImport(db, study.id)) throw conflict(ANOTHER_IMPORT);
    if (findStudy(db, study.id)?.status !== study.status)
      throw conflict('The study changed while the file was being checked; import it again.');
    return beginStaging(db, { studyId: study.id, kind: 'items', format, filename, createdBy: actor.id });
  });
  try {
    let position = itemsQ.lastItemPosition(db, study.id) + 1;
    let inserted = 0;
    let unchanged = 0;
    let records = 0;
    let batch: { v: RubricItem; json: string; hash: string }[] = [];
    const flush = () => {
      inTransaction(db, () => {
        for (const { v, json, hash } of batch) {
          const prior = itemsQ.itemContentHash(db, study.id, v.id);
          if (prior === hash) {
            unchanged++;
            continue;
          }
          if (prior !== undefined) throw invalid(`"${v.id}" changed during the import. Nothing was imported.`);
          rubricQ.insertRubricItem(db, {
            studyId: study.id,
            externalId: v.id,
            position: position++,
            payload: json,
            contentHash: hash,
            source: v.reply?.source ?? null,
            groupKey: v.group ?? null,
            importId,
          });
          inserted++;
        }
        heartbeat(db, importId);
      });
      batch = [];
    };
    for (const rec of rubricItemRecords(file, fmt)) {
      records++;
      if (!rec.ok) throw invalid(`The file changed while it was being imported (record ${rec.line}). Nothing was imported.`);
      batch.push({ v: rec.value, json: canonicalJson(rec.value), hash: contentHash(rec.value) });
      if (batch.length === BATCH_ITEMS) flush();
    }
    flush();
    if (records !== check.records) throw invalid('The file changed while it was being imported. Nothing was imported.');
    return inTransaction(db, (): ImportReportDto => {
      const annotations = gold ? writeRubricAnnotations(db, actor, study, rubricAnnotationRecords(file, gold, catalog)) : undefined;
      finishStaging(db, importId, { records, inserted, unchanged });
      audit(db, {
        userId: actor.id,
        action: 'items_imported',
        studyId: study.id,
        detail: { filename, format, records, inserted, unchanged },
      });
      return { records, inserted, unchanged, ...(annotations ? { annotations } : {}) };
    });
  } catch (e) {
    undoFailedImport(db, importId);
    throw e;
  }
}

/* ----- prior annotations ----- */
