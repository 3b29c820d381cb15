import 'server-only';
import crypto from 'node:crypto';
import path from 'node:path';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as importsQ from '@/db/queries/imports';
import * as itemsQ from '@/db/queries/items';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { annotationRecords, type RecordResult } from '@/lib/io/records';
import { usernameSchema } from '@/lib/validation/accounts';
import type { AnnotationLine, PairwiseItem } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { ErrorCollector, ImportRejected } from './import-report';
import { criteriaForItem } from '../review/judging';
import { invalid } from '../errors';
import { importRubricAnnotations } from './rubric-annotation-import';

type ItemInfo = { itemId: number | null; principles: string[] | undefined };

function itemLookup(db: Db, studyId: number, sameFile?: Map<string, string[] | undefined>) {
  return (externalId: string): ItemInfo | null => {
    const row = itemsQ.itemByExternalId(db, studyId, externalId);
    if (row) return { itemId: row.id, principles: (JSON.parse(row.payload) as PairwiseItem).principles };
    if (sameFile?.has(externalId)) return { itemId: null, principles: sameFile.get(externalId) };
    return null;
  };
}

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

function existingLabels(db: Db, itemId: number, username: string): Record<string, string> | null {
  const row = assignmentsQ.latestSubmittedAnnotationId(db, itemId, username);
  return row === undefined ? null : Object.fromEntries(pq.labelsOf(db, row).map((l) => [l.criterion, l.label]));
}

/**
 * Read-only pass over prior annotations: the item must exist (in the study or, for PandaLM, in the same file),
 * every criterion must apply to it, each (item, annotator) appears once, and no item gets more reviewers than
 * the study plans. An (item, annotator) already imported with the same labels is a no-op.
 */
export function checkPriorAnnotations(
  db: Db,
  study: StudyRow,
  records: Iterable<RecordResult<AnnotationLine>>,
  sameFile?: Map<string, string[] | undefined>,
) {
  const lookup = itemLookup(db, study.id, sameFile);
  const collector = new ErrorCollector();
  const fail = collector.add;
  const seen = new Map<string, number>();
  const planned = new Map<string, number>();
  let records_ = 0;
  let unchanged = 0;
  for (const rec of records) {
    records_++;
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
    const info = lookup(item);
    if (!info) {
      fail({ line: rec.line, path: 'item', message: `no item "${item}" in this study` });
      continue;
    }
    const applicable = new Set(criteriaForItem(study, { principles: info.principles }).map((c) => c.id));
    for (const criterion of Object.keys(labels)) {
      if (!applicable.has(criterion))
        fail({ line: rec.line, path: `labels.${criterion}`, message: `"${criterion}" is not a criterion of item "${item}"` });
    }
    const key = `${item}\u0000${username.data}`;
    if (seen.has(key)) {
      fail({ line: rec.line, path: 'annotator', message: `"${username.data}" already labelled "${item}" on line ${seen.get(key)}` });
      continue;
    }
    seen.set(key, rec.line);
    const prior = info.itemId === null ? null : existingLabels(db, info.itemId, username.data);
    if (prior) {
      if (sameLabels(prior, labels)) unchanged++;
      else fail({ line: rec.line, path: 'labels', message: `"${username.data}" already has different labels for "${item}"` });
      continue;
    }
    const used = (planned.get(item) ?? (info.itemId === null ? 0 : assignmentsQ.assignmentCountOfItem(db, info.itemId))) + 1;
    planned.set(item, used);
    if (used > study.reviewersPerItem) {
      fail({ line: rec.line, path: 'item', message: `"${item}" would have ${used} reviewers; the study plans ${study.reviewersPerItem}` });
    }
  }
  return { errors: collector.errors, errorCount: collector.errorCount, records: records_, unchanged };
}

/** Writes checked prior annotations: unknown annotators become accounts that cannot sign in. Call inside a transaction. */
export function writePriorAnnotations(db: Db, actor: Actor, study: StudyRow, records: Iterable<RecordResult<AnnotationLine>>) {
  const batch = crypto.randomBytes(6).toString('hex');
  const now = Date.now();
  let records_ = 0;
  let inserted = 0;
  let unchanged = 0;
  for (const rec of records) {
    records_++;
    if (!rec.ok) throw invalid('The file changed while it was being imported. Nothing was imported.');
    const { item, annotator, labels } = rec.value;
    const username = usernameSchema.parse(annotator);
    const id = itemsQ.itemIdByExternalId(db, study.id, item)!;
    if (existingLabels(db, id, username)) {
      unchanged++;
      continue;
    }
    const user =
      usersQ.findUserByUsername(db, username) ??
      usersQ.insertUser(db, { username, displayName: username, role: 'annotator', passwordHash: null, active: false });
    const slot = assignmentsQ.nextSlotOfItem(db, id);
    if (slot > study.reviewersPerItem) throw invalid(`"${item}" would exceed the planned reviewers. Nothing was imported.`);
    const assignmentId = assignmentsQ.insertSubmittedAssignment(db, {
      studyId: study.id,
      itemId: id,
      userId: user.id,
      slot,
      queuePosition: assignmentsQ.lastQueuePosition(db, study.id, user.id) + 1,
      submittedAt: now,
    });
    const annotationId = assignmentsQ.insertImportedAnnotation(db, assignmentId, `import-${batch}-${records_}`, actor.id);
    pq.insertLabels(
      db,
      annotationId,
      Object.entries(labels).map(([criterion, label]) => ({ criterion, label, screenChoice: null })),
    );
    inserted++;
  }
  return { records: records_, inserted, unchanged };
}

/** Imports labels made elsewhere (JSONL per DESIGN "Prior human annotations"), all or nothing. */
export function importAnnotations(actor: Actor, studyId: number, file: string, format: string = 'concord', filename = path.basename(file)) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.kind === 'rubric') return importRubricAnnotations(actor, study, file, format, filename);
  if (study.kind !== 'pairwise') throw invalid('Prior annotations can only be imported into a pairwise or rubric study.');
  if (format !== 'concord' && format !== 'pandalm')
    throw invalid(`Unknown format "${format}" for prior annotations of a pairwise study; use one of: concord, pandalm.`, {
      format: 'Unknown format',
    });
  if (study.status === 'closed') throw invalid('The study is closed.');
  const check = checkPriorAnnotations(db, study, annotationRecords(file, format));
  if (check.errorCount) throw new ImportRejected(check.errors, check.errorCount);
  if (!check.records) throw invalid('The file has no records.');
  return inTransaction(db, () => {
    const result = writePriorAnnotations(db, actor, study, annotationRecords(file, format));
    importsQ.insertDoneImport(db, { studyId, kind: 'annotations', format, filename, ...result, createdBy: actor.id });
    audit(db, { userId: actor.id, action: 'annotations_imported', studyId, detail: { filename, ...result } });
    return result;
  });
}
