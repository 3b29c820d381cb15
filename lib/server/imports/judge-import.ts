import 'server-only';
import path from 'node:path';
import { getDb, inTransaction } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import { judgeRecords, JUDGE_FORMATS } from '@/lib/io/records';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import { criteriaForItem } from '../review/judging';
import type { JudgeImportReportDto } from './dto';
import { importRubricJudge } from './rubric-judge-import';

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,99}$/;

/** Verdicts written per transaction: each batch holds the write lock for a few milliseconds. */
const BATCH_VERDICTS = 1_000;
/** The longest pause between two batches, and what the import waits on (nothing ever wakes it). */
const MAX_PAUSE_MS = 50;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Imports one judge run, all or nothing. Unknown items and criteria are errors that refuse the file; a verdict
 * that cannot be read is left out, counted and listed, and its item counts as unjudged. A first read-only pass
 * checks the whole file; only a clean file is read again and written, by short batches (a run of a million
 * verdicts in one transaction held the write lock for some 20 s, and annotators' submissions failed meanwhile)
 * into a run that stays 'staging', read by nobody, until one last transaction makes it 'done'. A failure undoes
 * the batches; a run whose process died is undone by the next start or import (`import-staging.ts`).
 */
export function importJudge(
  actor: Actor,
  studyId: number,
  file: string,
  format: string,
  judgeName?: string,
  filename = path.basename(file),
): JudgeImportReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.kind === 'rubric') return importRubricJudge(actor, study, file, format, judgeName, filename);
  if (study.kind !== 'pairwise') throw invalid('Judge labels can only be imported into a pairwise or rubric study.');
  if (!(JUDGE_FORMATS as readonly string[]).includes(format))
    throw invalid(`Unknown format "${format}"; use ${JUDGE_FORMATS.join(' or ')}.`);
  const readRecords = () => judgeRecords(file, format as (typeof JUDGE_FORMATS)[number], judgeName);
  const criteriaCache = new Map<number, Set<string>>();
  const collector = new ErrorCollector();
  const unparsed: JudgeImportReportDto['unparsed'] = [];
  const seen = new Set<string>();
  const runs = new Set<string>();
  let count = 0;
  if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
  for (const rec of readRecords()) {
    count++;
    if (!rec.ok) {
      if (rec.unreadableVerdict)
        unparsed.push({ item: rec.unreadableVerdict.item, line: rec.line, message: rec.errors.map((e) => e.message).join('; ') });
      else rec.errors.forEach(collector.add);
      continue;
    }
    const { item, judge, labels, swapped } = rec.value;
    runs.add(judge);
    const row = itemsQ.itemByExternalId(db, studyId, item);
    if (!row) {
      collector.add({ line: rec.line, path: 'item', message: `no item "${item}" in this study` });
      continue;
    }
    let applicable = criteriaCache.get(row.id);
    if (!applicable) {
      applicable = new Set(criteriaForItem(study, JSON.parse(row.payload) as PairwiseItem).map((c) => c.id));
      criteriaCache.set(row.id, applicable);
    }
    for (const criterion of Object.keys(labels)) {
      if (!applicable.has(criterion)) {
        collector.add({ line: rec.line, path: `labels.${criterion}`, message: `"${criterion}" is not a criterion of item "${item}"` });
        continue;
      }
      const key = `${judge}\u0000${item}\u0000${criterion}\u0000${swapped}`;
      if (seen.has(key))
        collector.add({
          line: rec.line,
          path: `labels.${criterion}`,
          message: `a second ${swapped ? 'swapped ' : ''}verdict on "${criterion}" for "${item}"`,
        });
      seen.add(key);
    }
  }
  if (runs.size > 1)
    collector.add({ line: 0, path: 'judge', message: `the file mixes judge runs (${[...runs].join(', ')}); import one run per file` });
  if (collector.errorCount) throw new ImportRejected(collector.errors, collector.errorCount);
  const name = judgeName ?? [...runs][0];
  if (!name) throw invalid('The file has no readable verdicts.');
  if (!RUN_NAME.test(name)) throw invalid(`"${name}" is not a usable run name (letters, digits, . _ - : / and spaces, up to 100).`);

  const { importId, runId } = inTransaction(db, () => {
    if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
    if (judgeRunsQ.judgeRunExists(db, studyId, name)) {
      throw conflict(`A judge run named "${name}" already exists in this study; import under another name.`);
    }
    const importId = beginStaging(db, { studyId, kind: 'judge', format, filename, createdBy: actor.id });
    const runId = judgeRunsQ.insertStagingJudgeRun(db, {
      studyId,
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
    let labelsWritten = 0;
    let records = 0;
    // Reading and looking up happen outside the write lock; a batch transaction only inserts its verdicts.
    let batch: judgeRunsQ.JudgeVerdict[] = [];
    const flush = () => {
      // Reading the next batch takes a millisecond, writing one several (each verdict also updates its pack): a
      // submission waiting for the lock, which SQLite lets retry after growing sleeps, would find it taken again
      // almost every time. Pausing as long as the last batch held the lock leaves it free half of the time.
      if (pauseMs > 0) Atomics.wait(PAUSE, 0, 0, pauseMs);
      const start = performance.now();
      inTransaction(db, () => {
        for (const v of batch) judgeRunsQ.insertJudgeLabel(db, runId, v);
        heartbeat(db, importId);
      });
      pauseMs = Math.min(MAX_PAUSE_MS, performance.now() - start);
      labelsWritten += batch.length;
      batch = [];
    };
    let pauseMs = 0;
    for (const rec of readRecords()) {
      records++;
      if (!rec.ok) {
        if (rec.unreadableVerdict) continue;
        throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      }
      const id = itemsQ.itemIdByExternalId(db, studyId, rec.value.item);
      if (id === undefined) throw invalid(`The file changed while it was being imported (line ${rec.line}). Nothing was imported.`);
      for (const [criterion, label] of Object.entries(rec.value.labels)) {
        batch.push([id, criterion, rec.value.swapped ? 1 : 0, label, rec.value.rationale ?? null]);
      }
      if (batch.length >= BATCH_VERDICTS) flush();
    }
    flush();
    if (records !== count) throw invalid('The file changed while it was being imported. Nothing was imported.');
    return inTransaction(db, (): JudgeImportReportDto => {
      if (!judgeRunsQ.finishJudgeRun(db, runId))
        throw new Error('This import was stopped for too long and has been undone; please import the file again.');
      finishStaging(db, importId, { records, inserted: labelsWritten, unchanged: 0 });
      audit(db, {
        userId: actor.id,
        action: 'judge_imported',
        studyId,
        objectId: runId,
        detail: { name, filename, labels: labelsWritten, unparsed: unparsed.length },
      });
      return { run: name, records, labels: labelsWritten, unparsed };
    });
  } catch (e) {
    undoFailedImport(db, importId);
    throw e;
  }
}
