import 'server-only';
import { type Db, inTransaction } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import type { RecordResult } from '@/lib/io/record-result';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid } from '../errors';
import type { JudgeImportReportDto } from './dto';
import { ANOTHER_IMPORT, beginStaging, finishStaging, heartbeat, runningImport, undoFailedImport } from './import-staging';

/*
 * The write half of a judge-run import, pairwise or rubric alike, once a first read-only pass found the file clean:
 * the file is read again and its verdicts written by short batches (a run of a million verdicts in one transaction
 * held the write lock for some 20 s, and annotators' submissions failed meanwhile) into a run that stays 'staging',
 * read by nobody, until one last transaction makes it 'done'. A failure undoes the batches; a run whose process died
 * is undone by the next start or import (`import-staging.ts`).
 */

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,99}$/;
/** Verdicts written per transaction: each batch holds the write lock for a few milliseconds. */
const BATCH_VERDICTS = 1_000;
/** The longest pause between two batches, and what the import waits on (nothing ever wakes it). */
const MAX_PAUSE_MS = 50;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

const CHANGED = 'The file changed while it was being imported';

export type StagedRun<V extends { item: string }, Row> = {
  studyId: number;
  /** The run's name (checked here), its format and file name as recorded with the import. */
  name: string | undefined;
  format: string;
  filename: string;
  /** The verdicts the first pass could not read: listed with the run, left out of it. */
  unparsed: JudgeImportReportDto['unparsed'];
  /** Records the first pass read: a different count on the second read means the file changed. */
  checkedRecords: number;
  records: () => Iterable<RecordResult<V>>;
  /** The rows of one record whose item is `itemId`. */
  rowsOf: (itemId: number, value: V) => Iterable<Row>;
  insert: (db: Db, runId: number, row: Row) => void;
};

export function writeStagedJudgeRun<V extends { item: string }, Row>(db: Db, actor: Actor, run: StagedRun<V, Row>): JudgeImportReportDto {
  const { studyId, name, format, filename, unparsed } = run;
  if (!name) throw invalid('The file has no readable verdicts.');
  if (!RUN_NAME.test(name)) throw invalid(`"${name}" is not a usable run name (letters, digits, . _ - : / and spaces, up to 100).`);

  const { importId, runId } = inTransaction(db, () => {
    if (runningImport(db, studyId)) throw conflict(ANOTHER_IMPORT);
    if (judgeRunsQ.judgeRunExists(db, studyId, name))
      throw conflict(`A judge run named "${name}" already exists in this study; import under another name.`);
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
    let written = 0;
    let records = 0;
    // Reading and looking up happen outside the write lock; a batch transaction only inserts its verdicts.
    let batch: Row[] = [];
    let pauseMs = 0;
    const flush = () => {
      // Reading the next batch takes a millisecond, writing one several (each verdict also updates its pack): a
      // submission waiting for the lock, which SQLite lets retry after growing sleeps, would find it taken again
      // almost every time. Pausing as long as the last batch held the lock leaves it free half of the time.
      if (pauseMs > 0) Atomics.wait(PAUSE, 0, 0, pauseMs);
      const start = performance.now();
      inTransaction(db, () => {
        for (const row of batch) run.insert(db, runId, row);
        heartbeat(db, importId);
      });
      pauseMs = Math.min(MAX_PAUSE_MS, performance.now() - start);
      written += batch.length;
      batch = [];
    };
    for (const rec of run.records()) {
      records++;
      if (!rec.ok) {
        if (rec.unreadableVerdict) continue;
        throw invalid(`${CHANGED} (line ${rec.line}). Nothing was imported.`);
      }
      const id = itemsQ.itemIdByExternalId(db, studyId, rec.value.item);
      if (id === undefined) throw invalid(`${CHANGED} (line ${rec.line}). Nothing was imported.`);
      for (const row of run.rowsOf(id, rec.value)) batch.push(row);
      if (batch.length >= BATCH_VERDICTS) flush();
    }
    flush();
    if (records !== run.checkedRecords) throw invalid(`${CHANGED}. Nothing was imported.`);
    return inTransaction(db, (): JudgeImportReportDto => {
      if (!judgeRunsQ.finishJudgeRun(db, runId))
        throw new Error('This import was stopped for too long and has been undone; please import the file again.');
      finishStaging(db, importId, { records, inserted: written, unchanged: 0 });
      audit(db, {
        userId: actor.id,
        action: 'judge_imported',
        studyId,
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
