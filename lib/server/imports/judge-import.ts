import 'server-only';
import path from 'node:path';
import { getDb } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import { studyKind } from '@/lib/kinds/registry';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { conflict } from '../errors';
import { importFormatFor } from './formats';
import { ErrorCollector, ImportRejected } from './import-report';
import { ANOTHER_IMPORT, runningImport } from './import-staging';
import { writeStagedJudgeRun } from './judge-run-staging';
import type { JudgeImportReportDto } from './dto';

/**
 * Imports one judge run into a study of any kind that has judges, all or nothing. Unknown items, and verdicts the
 * kind refuses (a criterion that does not apply, a dimension's label outside its set, a verdict given twice), refuse
 * the file; a verdict that cannot be read is left out, counted and listed, and its item counts as unjudged. A first
 * read-only pass checks the whole file; only a clean file is read again and written (`judge-run-staging.ts`). How
 * a kind's verdicts are read, checked and stored is its imports facet (`lib/kinds/<kind>/imports.ts`).
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
  const fmt = importFormatFor(study, 'judge', format);
  const kind = studyKind(study.kind).imports.judge!;
  const readRecords = () => kind.read(file, format, study, judgeName);
  const verdicts = kind.verdictsOf(db, study);
  const collector = new ErrorCollector();
  const unparsed: JudgeImportReportDto['unparsed'] = [];
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
    runs.add(rec.value.judge);
    const itemId = itemsQ.itemIdByExternalId(db, studyId, rec.value.item);
    if (itemId === undefined) {
      collector.add({ line: rec.line, path: 'item', message: `no item "${rec.value.item}" in this study` });
      continue;
    }
    verdicts.problems(itemId, rec.value, rec.line).forEach(collector.add);
  }
  if (runs.size > 1)
    collector.add({ line: 0, path: 'judge', message: `the file mixes judge runs (${[...runs].join(', ')}); import one run per file` });
  if (collector.errorCount) throw new ImportRejected(collector.errors, collector.errorCount);
  const named = [...runs][0];
  return writeStagedJudgeRun(db, actor, {
    studyId,
    // A run needs a readable verdict. A file of several judges (EvalKit) names its run after the judge the name
    // picked; elsewhere the name given with the import overrides the one the lines give.
    name: named === undefined ? undefined : fmt.judgeInFile ? named : (judgeName ?? named),
    format,
    filename,
    unparsed,
    checkedRecords: count,
    records: readRecords,
    rowsOf: verdicts.rowsOf,
    insert: verdicts.insert,
  });
}
