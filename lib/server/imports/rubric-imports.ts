import 'server-only';
import crypto from 'node:crypto';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as importsQ from '@/db/queries/imports';
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import * as rubricQ from '@/db/queries/rubric-imports';
import { findStudy, type StudyRow } from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { canonicalJson, contentHash } from '@/lib/io/canonical';
import type { RecordResult } from '@/lib/io/record-result';
import {
  RUBRIC_ANNOTATION_FORMATS,
  RUBRIC_ITEM_FORMATS,
  RUBRIC_JUDGE_FORMATS,
  rubricAnnotationRecords,
  rubricItemRecords,
  rubricJudgeRecords,
} from '@/lib/io/rubric-records';
import { usernameSchema } from '@/lib/validation/accounts';
import { rubricCatalogSchema, type RubricAnnotationLine, type RubricCatalog, type RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected, MAX_REPORTED_ERRORS } from './import-report';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import type { ImportReportDto, JudgeImportReportDto } from './dto';

/*
 * Imports into a rubric study (DESIGN "Rubric item", "Rubric dimensions"): items, prior annotations and judge runs,
 * on the same all-or-nothing path as the other kinds (a read-only pass that lists every bad line, then short
 * batches under a staging import). Labels arrive as names, checked against the study's catalog by the record
 * readers (`lib/io/rubric-records.ts`), and are stored as codes: the dimension's index in the catalog and the
 * label's index in its label set (docs/decisions/0010-rubric-labels.md).
 */

/** The study's catalog as it was fixed at creation. */
export function studyCatalog(study: StudyRow): RubricCatalog {
  return rubricCatalogSchema.parse(study.criteria);
}

/** Name ↔ code tables of a catalog. */
function codebook(catalog: RubricCatalog) {
  const dims = new Map(catalog.map((d, i) => [d.id, { index: i, labels: new Map(d.labels.map((l, j) => [l, j])) }]));
  return {
    code(dimension: string, label: string): [number, number] {
      const d = dims.get(dimension);
      const l = d?.labels.get(label);
      // The record readers checked both against this catalog already.
      if (d === undefined || l === undefined) throw new Error(`"${dimension}": "${label}" is not in the study's catalog`);
      return [d.index, l];
    },
    names(rows: { dimension: number; label: number }[]): Record<string, string> {
      return Object.fromEntries(rows.map((r) => [catalog[r.dimension].id, catalog[r.dimension].labels[r.label]]));
    },
  };
}

function oneOf<T extends string>(formats: readonly T[], format: string, what: string): T {
  if (!(formats as readonly string[]).includes(format)) {
    throw invalid(`Unknown format "${format}" for ${what} of a rubric study; use one of: ${formats.join(', ')}.`, {
      format: 'Unknown format',
    });
  }
  return format as T;
}

/* ----- items ----- */

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

function existingRubricLabels(db: Db, catalog: RubricCatalog, itemId: number, username: string): Record<string, string> | null {
  const id = assignmentsQ.latestSubmittedAnnotationId(db, itemId, username);
  return id === undefined ? null : codebook(catalog).names(rubricQ.rubricLabelsOf(db, id));
}

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * Read-only pass over prior annotations of a rubric study: the item exists (in the study, or in `sameFile`), each
 * (item, annotator) appears once, and no item gets more reviewers than the study plans. Labels were checked
 * against the catalog by the reader. An (item, annotator) already imported with the same labels is a no-op.
 */
export function checkRubricAnnotations(
  db: Db,
  study: StudyRow,
  records: Iterable<RecordResult<RubricAnnotationLine>>,
  sameFile?: Set<string>,
) {
  const catalog = studyCatalog(study);
  const collector = new ErrorCollector();
  const fail = collector.add;
  const seen = new Map<string, number>();
  const planned = new Map<string, number>();
  let count = 0;
  let unchanged = 0;
  for (const rec of records) {
    count++;
    if (!rec.ok) {
      rec.errors.forEach(fail);
      continue;
    }
    const { item, annotator, labels } = rec.value;
    const username = usernameSchema.safeParse(annotator);
    if (!username.success) {
      fail({ line: rec.line, path: 'annotator', message: `"${annotator}" cannot be an account name (lowercase letters, digits, . _ -)` });
      continue;
    }
    const itemId = itemsQ.itemIdByExternalId(db, study.id, item) ?? null;
    if (itemId === null && !sameFile?.has(item)) {
      fail({ line: rec.line, path: 'item', message: `no item "${item}" in this study` });
      continue;
    }
    const key = `${item}\u0000${username.data}`;
    if (seen.has(key)) {
      fail({ line: rec.line, path: 'annotator', message: `"${username.data}" already labelled "${item}" on line ${seen.get(key)}` });
      continue;
    }
    seen.set(key, rec.line);
    const prior = itemId === null ? null : existingRubricLabels(db, catalog, itemId, username.data);
    if (prior) {
      if (sameLabels(prior, labels)) unchanged++;
      else fail({ line: rec.line, path: 'labels', message: `"${username.data}" already has different labels for "${item}"` });
      continue;
    }
    const used = (planned.get(item) ?? (itemId === null ? 0 : assignmentsQ.assignmentCountOfItem(db, itemId))) + 1;
    planned.set(item, used);
    if (used > study.reviewersPerItem) {
      fail({ line: rec.line, path: 'item', message: `"${item}" would have ${used} reviewers; the study plans ${study.reviewersPerItem}` });
    }
  }
  return { errors: collector.errors, errorCount: collector.errorCount, records: count, unchanged };
}

/**
 * Writes checked prior annotations as a pairwise prior is written: a submitted assignment, one annotation and its
 * labels (as codes). Unknown annotators become accounts that cannot sign in. Call inside a transaction.
 */
export function writeRubricAnnotations(db: Db, actor: Actor, study: StudyRow, records: Iterable<RecordResult<RubricAnnotationLine>>) {
  const catalog = studyCatalog(study);
  const book = codebook(catalog);
  const batch = crypto.randomBytes(6).toString('hex');
  const now = Date.now();
  let count = 0;
  let inserted = 0;
  let unchanged = 0;
  for (const rec of records) {
    count++;
    if (!rec.ok) throw invalid('The file changed while it was being imported. Nothing was imported.');
    const { item, annotator, labels } = rec.value;
    const username = usernameSchema.parse(annotator);
    const itemId = itemsQ.itemIdByExternalId(db, study.id, item);
    if (itemId === undefined) throw invalid(`"${item}" disappeared during the import. Nothing was imported.`);
    if (existingRubricLabels(db, catalog, itemId, username)) {
      unchanged++;
      continue;
    }
    const user =
      usersQ.findUserByUsername(db, username) ??
      usersQ.insertUser(db, { username, displayName: username, role: 'annotator', passwordHash: null, active: false });
    const slot = assignmentsQ.nextSlotOfItem(db, itemId);
    if (slot > study.reviewersPerItem) throw invalid(`"${item}" would exceed the planned reviewers. Nothing was imported.`);
    const assignmentId = assignmentsQ.insertSubmittedAssignment(db, {
      studyId: study.id,
      itemId,
      userId: user.id,
      slot,
      queuePosition: assignmentsQ.lastQueuePosition(db, study.id, user.id) + 1,
      submittedAt: now,
    });
    const annotationId = assignmentsQ.insertImportedAnnotation(db, assignmentId, `import-${batch}-${count}`, actor.id);
    for (const [dimension, label] of Object.entries(labels)) rubricQ.insertRubricLabel(db, annotationId, ...book.code(dimension, label));
    inserted++;
  }
  return { records: count, inserted, unchanged };
}

/** Imports a rubric study's prior annotations (Concord JSONL, or MRBench's gold labels), all or nothing. */
export function importRubricAnnotations(actor: Actor, study: StudyRow, file: string, format: string, filename: string) {
  const db = getDb();
  const fmt = oneOf(RUBRIC_ANNOTATION_FORMATS, format, 'prior annotations');
  if (study.status === 'closed') throw invalid('The study is closed.');
  const catalog = studyCatalog(study);
  const check = checkRubricAnnotations(db, study, rubricAnnotationRecords(file, fmt, catalog));
  if (check.errorCount) throw new ImportRejected(check.errors, check.errorCount);
  if (!check.records) throw invalid('The file has no records.');
  return inTransaction(db, () => {
    const result = writeRubricAnnotations(db, actor, study, rubricAnnotationRecords(file, fmt, catalog));
    importsQ.insertDoneImport(db, { studyId: study.id, kind: 'annotations', format, filename, ...result, createdBy: actor.id });
    audit(db, { userId: actor.id, action: 'annotations_imported', studyId: study.id, detail: { filename, format, ...result } });
    return result;
  });
}

/* ----- judge runs ----- */

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,99}$/;
const BATCH_VERDICTS = 1_000;
/** The longest pause between two batches (as for pairwise runs: annotators' submissions get the lock in between). */
const MAX_PAUSE_MS = 50;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Imports one judge run into a rubric study, all or nothing, like a pairwise run (`judge-import.ts`): unknown
 * items and dimensions and labels outside a dimension's set refuse the file; a verdict that cannot be read is left
 * out and listed; each `sample` of a line is a verdict set of its own; rationales are kept.
 */
export function importRubricJudge(
  actor: Actor,
  study: StudyRow,
  file: string,
  format: string,
  judgeName: string | undefined,
  filename: string,
): JudgeImportReportDto {
  const db = getDb();
  const fmt = oneOf(RUBRIC_JUDGE_FORMATS, format, 'judge runs');
  const catalog = studyCatalog(study);
  const book = codebook(catalog);
  const readRecords = () => {
    try {
      return rubricJudgeRecords(file, fmt, catalog, judgeName);
    } catch (e) {
      // EvalKit: a file whose judge cannot be told from its name, and no --judge given.
      throw invalid((e as Error).message);
    }
  };
  if (runningImport(db, study.id)) throw conflict(ANOTHER_IMPORT);
  const collector = new ErrorCollector();
  const unparsed: JudgeImportReportDto['unparsed'] = [];
  const seen = new Map<string, number>();
  const runs = new Set<string>();
  let count = 0;
  for (const rec of readRecords()) {
    count++;
    if (!rec.ok) {
      if (rec.unreadableVerdict)
        unparsed.push({ item: rec.unreadableVerdict.item, line: rec.line, message: rec.errors.map((e) => e.message).join('; ') });
      else rec.errors.forEach(collector.add);
      continue;
    }
    const { item, judge, labels, sample } = rec.value;
    runs.add(judge);
    if (itemsQ.itemIdByExternalId(db, study.id, item) === undefined) {
      collector.add({ line: rec.line, path: 'item', message: `no item "${item}" in this study` });
      continue;
    }
    for (const dimension of Object.keys(labels)) {
      const key = `${item}\u0000${dimension}\u0000${sample}`;
      const first = seen.get(key);
      if (first !== undefined)
        collector.add({
          line: rec.line,
          path: `labels.${dimension}`,
          message: `a second verdict on "${dimension}" for "${item}", sample ${sample} (first on line ${first})`,
        });
      else seen.set(key, rec.line);
    }
  }
  if (runs.size > 1)
    collector.add({ line: 0, path: 'judge', message: `the file mixes judge runs (${[...runs].join(', ')}); import one run per file` });
  if (collector.errorCount) throw new ImportRejected(collector.errors, collector.errorCount);
  const name = fmt === 'aitutor-evalkit' ? ([...runs][0] ?? judgeName) : (judgeName ?? [...runs][0]);
  if (!name || !runs.size) throw invalid('The file has no readable verdicts.');
  if (!RUN_NAME.test(name)) throw invalid(`"${name}" is not a usable run name (letters, digits, . _ - : / and spaces, up to 100).`);

  const { importId, runId } = inTransaction(db, () => {
    if (runningImport(db, study.id)) throw conflict(ANOTHER_IMPORT);
    if (judgeRunsQ.judgeRunExists(db, study.id, name))
      throw conflict(`A judge run named "${name}" already exists in this study; import under another name.`);
    const importId = beginStaging(db, { studyId: study.id, kind: 'judge', format, filename, createdBy: actor.id });
    const runId = judgeRunsQ.insertStagingJudgeRun(db, {
      studyId: study.id,
      name,
      format,
      filename,
      unparsed: JSON.stringify(unparsed),
      importId,
      createdBy: actor.id,
    });
    return { importId, runId };
  });
  try {
    let written = 0;
    let records = 0;
    let batch: rubricQ.RubricVerdict[] = [];
    let pauseMs = 0;
    const flush = () => {
      // Pause as long as the last batch held the write lock, so a waiting submission finds it free half the time.
      if (pauseMs > 0) Atomics.wait(PAUSE, 0, 0, pauseMs);
      const start = performance.now();
      inTransaction(db, () => {
        for (const v of batch) rubricQ.insertRubricJudgeLabel(db, runId, v);
        heartbeat(db, importId);
      });
      pauseMs = Math.min(MAX_PAUSE_MS, performance.now() - start);
      written += batch.length;
      batch = [];
    };
    for (const rec of readRecords()) {
      records++;
      if (!rec.ok) {
        if (rec.unreadableVerdict) continue;
        throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      }
      const id = itemsQ.itemIdByExternalId(db, study.id, rec.value.item);
      if (id === undefined) throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      for (const [dimension, label] of Object.entries(rec.value.labels)) {
        const [d, l] = book.code(dimension, label);
        batch.push([id, d, rec.value.sample, l, rec.value.rationale ?? null]);
      }
      if (batch.length >= BATCH_VERDICTS) flush();
    }
    flush();
    if (records !== count) throw invalid('The file changed while it was being imported. Nothing was imported.');
    return inTransaction(db, (): JudgeImportReportDto => {
      if (!judgeRunsQ.finishJudgeRun(db, runId))
        throw new Error('This import was stopped for too long and has been undone; please import the file again.');
      finishStaging(db, importId, { records, inserted: written, unchanged: 0 });
      audit(db, {
        userId: actor.id,
        action: 'judge_imported',
        studyId: study.id,
        objectId: runId,
        detail: { name, filename, labels: written, unparsed: unparsed.length },
      });
      return { run: name, records, labels: written, unparsed };
    });
  } catch (e) {
    undoFailedImport(db, importId);
    throw e;
  }
}
