import 'server-only';
import crypto from 'node:crypto';
import path from 'node:path';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as importsQ from '@/db/queries/imports';
import * as itemsQ from '@/db/queries/items';
import type { StudyRow } from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import type { RecordResult } from '@/lib/io/record-result';
import type { AnnotationImports, LabelLine } from '@/lib/kinds/facets/imports';
import { studyKind } from '@/lib/kinds/registry';
import { usernameSchema } from '@/lib/validation/accounts';
import { MAX_RATERS_PER_ITEM } from '@/lib/validation/studies';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { importFormatFor } from './formats';
import { ErrorCollector, ImportRejected } from './import-report';
import { invalid } from '../errors';

/*
 * Prior annotations — labels made elsewhere, or that came with the items (PandaLM's annotators, MRBench's gold
 * labels) — for every kind: checked against the items, written as submitted assignments, all or nothing. How labels
 * are checked on an item and stored is the kind's (`labelsOf` in `lib/kinds/<kind>/imports.ts`).
 */

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * Read-only pass over prior annotations: the item must exist (in the study or, for a format that brings its
 * annotations with the items, in the same file: `sameFile`), the kind's label checks hold, each (item, annotator)
 * appears once, and no item gets more than `MAX_RATERS_PER_ITEM` raters. The study's plan (reviewers per item) does
 * not bound them: it bounds the assignments the app makes (decision 0028). An (item, annotator) already imported
 * with the same labels is a no-op.
 */
export function checkPriorAnnotations(
  db: Db,
  study: StudyRow,
  kind: AnnotationImports,
  records: Iterable<RecordResult<LabelLine>>,
  sameFile?: Map<string, unknown>,
) {
  const labels_ = kind.labelsOf(db, study);
  const collector = new ErrorCollector();
  const fail = collector.add;
  const seen = new Map<string, number>();
  const raters = new Map<string, number>();
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
    // The item's content is read only for a kind that checks labels on it.
    const row = labels_.problems ? itemsQ.itemByExternalId(db, study.id, item) : undefined;
    const itemId = labels_.problems ? (row?.id ?? null) : (itemsQ.itemIdByExternalId(db, study.id, item) ?? null);
    if (itemId === null && !sameFile?.has(item)) {
      fail({ line: rec.line, path: 'item', message: `no item "${item}" in this study` });
      continue;
    }
    if (labels_.problems) labels_.problems(row ? JSON.parse(row.payload) : sameFile!.get(item), rec.value, rec.line).forEach(fail);
    const key = `${item}\u0000${username.data}`;
    if (seen.has(key)) {
      fail({ line: rec.line, path: 'annotator', message: `"${username.data}" already labelled "${item}" on line ${seen.get(key)}` });
      continue;
    }
    seen.set(key, rec.line);
    const prior = itemId === null ? null : existingLabels(db, labels_.existing, itemId, username.data);
    if (prior) {
      if (sameLabels(prior, labels)) unchanged++;
      else fail({ line: rec.line, path: 'labels', message: `"${username.data}" already has different labels for "${item}"` });
      continue;
    }
    const used = (raters.get(item) ?? (itemId === null ? 0 : assignmentsQ.assignmentCountOfItem(db, itemId))) + 1;
    raters.set(item, used);
    if (used === MAX_RATERS_PER_ITEM + 1) {
      fail({ line: rec.line, path: 'item', message: `"${item}" would have more than ${MAX_RATERS_PER_ITEM} raters` });
    }
  }
  return { errors: collector.errors, errorCount: collector.errorCount, records: records_, unchanged };
}

function existingLabels(db: Db, existing: (annotationId: number) => Record<string, string>, itemId: number, username: string) {
  const id = assignmentsQ.latestSubmittedAnnotationId(db, itemId, username);
  return id === undefined ? null : existing(id);
}

/**
 * Writes checked prior annotations: a submitted assignment, one annotation and its labels each. Unknown annotators
 * become accounts that cannot sign in. Call inside a transaction.
 */
export function writePriorAnnotations(
  db: Db,
  actor: Actor,
  study: StudyRow,
  kind: AnnotationImports,
  records: Iterable<RecordResult<LabelLine>>,
) {
  const labels_ = kind.labelsOf(db, study);
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
    const itemId = itemsQ.itemIdByExternalId(db, study.id, item);
    if (itemId === undefined) throw invalid(`"${item}" disappeared during the import. Nothing was imported.`);
    if (existingLabels(db, labels_.existing, itemId, username)) {
      unchanged++;
      continue;
    }
    const user =
      usersQ.findUserByUsername(db, username) ??
      usersQ.insertUser(db, { username, displayName: username, role: 'annotator', passwordHash: null, active: false });
    // After the item's highest slot, planned or not: prior raters are not bounded by the plan (decision 0028).
    const slot = assignmentsQ.nextSlotOfItem(db, itemId);
    if (slot > MAX_RATERS_PER_ITEM + study.reviewersPerItem) throw invalid(`"${item}" would have too many raters. Nothing was imported.`);
    const assignmentId = assignmentsQ.insertSubmittedAssignment(db, {
      studyId: study.id,
      itemId,
      userId: user.id,
      slot,
      queuePosition: assignmentsQ.lastQueuePosition(db, study.id, user.id) + 1,
      submittedAt: now,
    });
    const annotationId = assignmentsQ.insertImportedAnnotation(db, assignmentId, `import-${batch}-${records_}`, actor.id);
    labels_.insert(annotationId, labels);
    inserted++;
  }
  return { records: records_, inserted, unchanged };
}

/** Imports labels made elsewhere (JSONL per DESIGN "Prior human annotations", or a kind's public format), all or nothing. */
export function importAnnotations(actor: Actor, studyId: number, file: string, format: string = 'concord', filename = path.basename(file)) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  importFormatFor(study, 'annotations', format);
  const kind = studyKind(study.kind).imports.annotations!;
  if (study.status === 'closed') throw invalid('The study is closed.');
  const check = checkPriorAnnotations(db, study, kind, kind.read(file, format, study));
  if (check.errorCount) throw new ImportRejected(check.errors, check.errorCount);
  if (!check.records) throw invalid('The file has no records.');
  return inTransaction(db, () => {
    const result = writePriorAnnotations(db, actor, study, kind, kind.read(file, format, study));
    importsQ.insertDoneImport(db, { studyId, kind: 'annotations', format, filename, ...result, createdBy: actor.id });
    audit(db, { userId: actor.id, action: 'annotations_imported', studyId, detail: { filename, format, ...result } });
    return result;
  });
}
