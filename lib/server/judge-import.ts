import 'server-only';
import path from 'node:path';
import { getDb, inTransaction } from '@/db/client';
import { judgeRecords, JUDGE_FORMATS } from '@/lib/io/records';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import type { Actor } from './actor';
import { studyForStaff } from './access';
import { audit } from './audit';
import { conflict, invalid } from './errors';
import { ErrorCollector, ImportRejected } from './import-report';
import { criteriaForItem } from './judging';

export type JudgeImportReportDto = {
  run: string;
  records: number;
  labels: number;
  /** Records whose verdict could not be read: left out (never guessed), each listed with its item. */
  unparsed: { item: string; line: number; message: string }[];
};

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,99}$/;

/**
 * Imports one judge run, all or nothing. Unknown items and criteria are errors that refuse the file; a verdict
 * that cannot be read is left out, counted and listed, and its item counts as unjudged.
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
  if (study.kind !== 'pairwise') throw invalid('Judge labels can only be imported into a pairwise study.');
  if (!(JUDGE_FORMATS as readonly string[]).includes(format))
    throw invalid(`Unknown format "${format}"; use ${JUDGE_FORMATS.join(' or ')}.`);
  const records = () => judgeRecords(file, format as (typeof JUDGE_FORMATS)[number], judgeName);
  const itemStmt = db.$client.prepare('SELECT id, payload FROM items WHERE study_id = ? AND external_id = ?');
  const criteriaCache = new Map<number, Set<string>>();
  const collector = new ErrorCollector();
  const unparsed: JudgeImportReportDto['unparsed'] = [];
  const seen = new Set<string>();
  const runs = new Set<string>();
  let count = 0;
  for (const rec of records()) {
    count++;
    if (!rec.ok) {
      if (rec.unreadableVerdict)
        unparsed.push({ item: rec.unreadableVerdict.item, line: rec.line, message: rec.errors.map((e) => e.message).join('; ') });
      else rec.errors.forEach(collector.add);
      continue;
    }
    const { item, judge, labels, swapped } = rec.value;
    runs.add(judge);
    const row = itemStmt.get(studyId, item) as { id: number; payload: string } | undefined;
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

  return inTransaction(db, () => {
    if (db.$client.prepare('SELECT 1 FROM judge_runs WHERE study_id = ? AND name = ?').get(studyId, name)) {
      throw conflict(`A judge run named "${name}" already exists in this study; import under another name.`);
    }
    const runId = Number(
      db.$client
        .prepare('INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, ?, ?, ?, ?, ?)')
        .run(studyId, name, format, filename, JSON.stringify(unparsed), actor.id).lastInsertRowid,
    );
    const insert = db.$client.prepare(
      'INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label, rationale) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let labelsWritten = 0;
    for (const rec of records()) {
      if (!rec.ok) continue;
      const row = itemStmt.get(studyId, rec.value.item) as { id: number };
      for (const [criterion, label] of Object.entries(rec.value.labels)) {
        insert.run(runId, row.id, criterion, rec.value.swapped ? 1 : 0, label, rec.value.rationale ?? null);
        labelsWritten++;
      }
    }
    audit(db, {
      userId: actor.id,
      action: 'judge_imported',
      studyId,
      objectId: runId,
      detail: { name, filename, labels: labelsWritten, unparsed: unparsed.length },
    });
    return { run: name, records: count, labels: labelsWritten, unparsed };
  });
}
