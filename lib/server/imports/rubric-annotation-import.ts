import 'server-only';
import crypto from 'node:crypto';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as importsQ from '@/db/queries/imports';
import * as itemsQ from '@/db/queries/items';
import * as rubricQ from '@/db/queries/rubric-imports';
import { type StudyRow } from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import type { RecordResult } from '@/lib/io/record-result';
import { RUBRIC_ANNOTATION_FORMATS, rubricAnnotationRecords } from '@/lib/io/rubric-records';
import { usernameSchema } from '@/lib/validation/accounts';
import { type RubricAnnotationLine, type RubricCatalog } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { invalid } from '../errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { codebook, oneOf, studyCatalog } from './rubric-codebook';

/*
 * Prior annotations of a rubric study (`mrbench-gold` and the like): checked against the catalog and the items,
 * written as submitted assignments with their labels as codes, all or nothing.
 */

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
