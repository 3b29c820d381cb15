import 'server-only';
import { getDb } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as rubricQ from '@/db/queries/rubric-imports';
import { type StudyRow } from '@/db/queries/studies';
import { RUBRIC_JUDGE_FORMATS, rubricJudgeRecords } from '@/lib/io/rubric-records';
import type { Actor } from '../actor';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { ANOTHER_IMPORT, runningImport } from './import-staging';
import { writeStagedJudgeRun } from './judge-run-staging';
import type { JudgeImportReportDto } from './dto';
import { codebook, oneOf, studyCatalog } from './rubric-codebook';

/*
 * Judge runs of a rubric study: verdicts per reply, dimension and sample, written as a staged run in short batches
 * and made visible by one last transaction, all or nothing.
 */

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
  return writeStagedJudgeRun(db, actor, {
    studyId: study.id,
    // EvalKit names its judge in the file; elsewhere --judge overrides the name the lines give
    name: runs.size === 0 ? undefined : fmt === 'aitutor-evalkit' ? ([...runs][0] ?? judgeName) : (judgeName ?? [...runs][0]),
    format,
    filename,
    unparsed,
    checkedRecords: count,
    records: readRecords,
    rowsOf: (id, v): rubricQ.RubricVerdict[] =>
      Object.entries(v.labels).map(([dimension, label]) => {
        const [d, l] = book.code(dimension, label);
        return [id, d, v.sample, l, v.rationale ?? null];
      }),
    insert: rubricQ.insertRubricJudgeLabel,
  });
}
