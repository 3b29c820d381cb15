import 'server-only';
import path from 'node:path';
import { getDb } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import { judgeRecords, JUDGE_FORMATS } from '@/lib/io/records';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { conflict, invalid } from '../errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { ANOTHER_IMPORT, runningImport } from './import-staging';
import { writeStagedJudgeRun } from './judge-run-staging';
import { criteriaForItem } from '../review/judging';
import type { JudgeImportReportDto } from './dto';
import { importRubricJudge } from './rubric-judge-import';

/**
 * Imports one judge run, all or nothing. Unknown items and criteria are errors that refuse the file; a verdict
 * that cannot be read is left out, counted and listed, and its item counts as unjudged. A first read-only pass
 * checks the whole file; only a clean file is read again and written (`judge-run-staging.ts`).
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
  return writeStagedJudgeRun(db, actor, {
    studyId,
    name: judgeName ?? [...runs][0],
    format,
    filename,
    unparsed,
    checkedRecords: count,
    records: readRecords,
    rowsOf: (id, v): judgeRunsQ.JudgeVerdict[] =>
      Object.entries(v.labels).map(([criterion, label]) => [id, criterion, v.swapped ? 1 : 0, label, v.rationale ?? null]),
    insert: judgeRunsQ.insertJudgeLabel,
  });
}
