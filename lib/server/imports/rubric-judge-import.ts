import 'server-only';
import { getDb, inTransaction } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import * as rubricQ from '@/db/queries/rubric-imports';
import { type StudyRow } from '@/db/queries/studies';
import { RUBRIC_JUDGE_FORMATS, rubricJudgeRecords } from '@/lib/io/rubric-records';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';
import type { JudgeImportReportDto } from './dto';
import { codebook, oneOf, studyCatalog } from './rubric-codebook';

/*
 * Judge runs of a rubric study: verdicts per reply, dimension and sample, written as a staged run in short batches
 * and made visible by one last transaction, all or nothing.
 */

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
