/**
 * Budget: the ground-truth export of 1,000,000 criterion-level labels, streamed, in under 10 s.
 * Run: npx tsx --conditions=react-server bench/export.ts
 *
 * Builds the temporary 20 models × 5,000 items × 10 criteria pairwise study of bench/pairwise-study.ts and
 * consumes `exportGroundTruth(…, 'csv')` (and 'jsonl') fully, counting bytes, as the route does; median of 3 runs
 * after a warm-up. Floor: the raw better-sqlite3 streaming of the rows the export reads (reviewers' labels of the
 * newest revisions and the adjudications, with usernames), `.raw().iterate()`, each row turned into a CSV line.
 */
import os from 'node:os';
import { buildPairwiseStudy, ms, openBenchDatabase, summary, timeIt } from './pairwise-study';

const RUNS = 3;
const BUDGET_MS = 10_000;

async function main() {
  const bench = openBenchDatabase('export');
  try {
    const built = await buildPairwiseStudy();
    const { getDb } = await import('@/db/client');
    const { exportGroundTruth } = await import('@/lib/server/ground-truth/ground-truth');
    const sql = getDb().$client;
    const lead = { id: built.leadId, username: 'benchlead', displayName: 'Bench lead', role: 'lead' as const };
    const { studyId } = built;
    console.log(
      `Concord ground-truth export benchmark — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after a warm-up; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `study: ${built.counts.items.toLocaleString('en')} items × 10 criteria, ${built.counts.labels.toLocaleString('en')} human label rows, ` +
        `${built.counts.adjudications.toLocaleString('en')} adjudications; built in ${(built.buildMs / 1000).toFixed(1)} s (not timed)`,
    );

    const floor = timeIt(() => {
      let bytes = 0;
      let rows = 0;
      for (const r of sql
        .prepare(
          `SELECT i.external_id, a.slot, l.criterion, l.label FROM items i
             JOIN assignments a ON a.item_id = i.id AND a.state = 'submitted'
             JOIN annotations an ON an.assignment_id = a.id AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
             JOIN labels l ON l.annotation_id = an.id
            WHERE i.study_id = ? ORDER BY i.position`,
        )
        .raw()
        .iterate(studyId) as IterableIterator<unknown[]>) {
        bytes += (r.join(',') + '\n').length;
        rows++;
      }
      for (const r of sql
        .prepare(
          `SELECT j.item_id, j.criterion, j.label, j.rationale, u.username FROM adjudications j JOIN items i ON i.id = j.item_id
             JOIN users u ON u.id = j.adjudicator_id WHERE i.study_id = ?`,
        )
        .raw()
        .iterate(studyId) as IterableIterator<unknown[]>) {
        bytes += (r.join(',') + '\n').length;
        rows++;
      }
      return `${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB`;
    }, RUNS);
    const f = summary(floor.times).median;
    console.log(`floor (raw .raw().iterate() of the labels + adjudications read, one CSV-ish line per row): ${ms(f)} — ${floor.result}`);

    for (const format of ['csv', 'jsonl'] as const) {
      const run = timeIt(() => {
        const out = exportGroundTruth(lead, studyId, format);
        let bytes = 0;
        let lines = 0;
        for (const chunk of out.lines) {
          bytes += Buffer.byteLength(chunk);
          // CSV comes in batches of rows; count line ends (rationales here hold no line breaks).
          for (let k = chunk.indexOf('\n'); k >= 0; k = chunk.indexOf('\n', k + 1)) lines++;
        }
        return `${lines.toLocaleString('en')} lines, ${(bytes / 1e6).toFixed(0)} MB; ${out.summary.labels.toLocaleString('en')} labels, ${out.summary.incomplete} incomplete items`;
      }, RUNS);
      const s = summary(run.times);
      console.log(
        `exportGroundTruth(${format}) consumed fully: ${ms(s.median)} (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})  ratio ${(s.median / f).toFixed(2)}×  ` +
          `${s.median < BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS / 1000} s budget — ${run.result}`,
      );
    }
    console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    const { closeDb } = await import('@/db/client');
    closeDb();
    bench.remove();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
