/**
 * Budget "Dashboards: one million criterion-level labels summarised in under a second" (DESIGN, Budgets).
 * Run: npx tsx --conditions=react-server lib/bench/dashboards.ts
 *
 * Builds a temporary pairwise study of 20 models × 5,000 items × 10 criteria (lib/bench/pairwise-study.ts), then
 * times each report with the bootstrap off — agreementReport, alignmentReport, leaderboardReport, hybridReport —
 * and groundTruthCodes / summarize from lib/server/ground-truth.ts (the row-by-row `groundTruth` is timed by export.ts): median of 3 runs after a
 * warm-up. The floor is plain better-sqlite3 streaming (`.raw().iterate()`) the rows the report needs:
 * human labels (agreement), + adjudications (ground truth), + judge labels (alignment, leaderboard, hybrid).
 */
import os from 'node:os';
import { ITEMS, JUDGE, buildPairwiseStudy, ms, openBenchDatabase, summary, timeIt } from './pairwise-study';

const RUNS = 3;
const BUDGET_MS = 1000;

async function main() {
  const bench = openBenchDatabase('dashboards');
  try {
    const built = await buildPairwiseStudy();
    const { getDb } = await import('@/db/client');
    const { findStudy } = await import('@/db/queries/studies');
    const { agreementReport } = await import('@/lib/server/analytics/agreement');
    const { alignmentReport } = await import('@/lib/server/analytics/alignment');
    const { leaderboardReport } = await import('@/lib/server/analytics/leaderboard');
    const { hybridReport } = await import('@/lib/server/analytics/hybrid');
    const { groundTruthCodes, summarize } = await import('@/lib/server/ground-truth');
    const { studyCriteria } = await import('@/lib/server/analytics/data');
    const db = getDb();
    const sql = db.$client;
    const lead = { id: built.leadId, username: 'benchlead', displayName: 'Bench lead', role: 'lead' as const };
    const { studyId, judgeRunId } = built;
    const study = findStudy(db, studyId)!;
    const criterionIds = studyCriteria(study).map((c) => c.id);

    console.log(`Concord dashboards benchmark — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after a warm-up; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log(
      `study: ${built.counts.items.toLocaleString('en')} items, ${built.counts.labels.toLocaleString('en')} human label rows ` +
        `(${built.counts.annotations.toLocaleString('en')} annotations), ${built.counts.adjudications.toLocaleString('en')} adjudications, ` +
        `${built.counts.judgeLabels.toLocaleString('en')} judge labels; built in ${(built.buildMs / 1000).toFixed(1)} s (not timed)`,
    );

    // Floors: the rows each report needs, streamed by plain better-sqlite3.
    const stream = (text: string, ...args: unknown[]) => () => {
      let rows = 0;
      for (const _ of sql.prepare(text).raw().iterate(...args)) rows++;
      return rows;
    };
    const humanRows = stream(
      `SELECT a.item_id, a.slot, l.criterion, l.label FROM assignments a
         JOIN annotations an ON an.assignment_id = a.id AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
         JOIN labels l ON l.annotation_id = an.id
        WHERE a.study_id = ? AND a.state = 'submitted'`,
      studyId,
    );
    const adjudicationRows = stream(
      `SELECT j.item_id, j.criterion, j.label FROM adjudications j JOIN items i ON i.id = j.item_id WHERE i.study_id = ?`,
      studyId,
    );
    const judgeRows = stream('SELECT item_id, criterion, swapped, label FROM judge_labels WHERE run_id = ?', judgeRunId);
    const floorHuman = timeIt(humanRows, RUNS);
    const floorAdj = timeIt(adjudicationRows, RUNS);
    const floorJudge = timeIt(judgeRows, RUNS);
    const fh = summary(floorHuman.times).median;
    const fa = summary(floorAdj.times).median;
    const fj = summary(floorJudge.times).median;
    console.log('floors (raw better-sqlite3 .raw().iterate(), rows counted):');
    console.log(`  human labels, newest revision     ${ms(fh)}   ${floorHuman.result.toLocaleString('en')} rows`);
    console.log(`  adjudications                     ${ms(fa)}   ${floorAdj.result.toLocaleString('en')} rows`);
    console.log(`  judge labels                      ${ms(fj)}   ${floorJudge.result.toLocaleString('en')} rows`);

    const cases: { name: string; floor: number; floorName: string; fn: () => string }[] = [
      {
        name: 'agreementReport',
        floor: fh,
        floorName: 'human',
        fn: () => {
          const r = agreementReport(lead, studyId, { bootstrap: 0 });
          return `${JSON.stringify(r).length.toLocaleString('en')} B of JSON`;
        },
      },
      {
        name: 'alignmentReport',
        floor: fh + fa + fj,
        floorName: 'human+adj+judge',
        fn: () => `${JSON.stringify(alignmentReport(lead, studyId, { judge: JUDGE, bootstrap: 0 })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'leaderboardReport',
        floor: fh + fa + fj,
        floorName: 'human+adj+judge',
        fn: () => `${JSON.stringify(leaderboardReport(lead, studyId, { bootstrap: 0 })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'hybridReport (overall)',
        floor: fh + fa + fj,
        floorName: 'human+adj+judge',
        fn: () => `${JSON.stringify(hybridReport(lead, studyId, { judge: JUDGE, criterion: 'overall' })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'groundTruthCodes',
        floor: fh + fa,
        floorName: 'human+adj',
        fn: () => {
          const g = groundTruthCodes(db, study, criterionIds);
          return `${g.labels.toLocaleString('en')} labels, ${g.incompleteItems} incomplete items`;
        },
      },
      {
        name: 'summarize',
        floor: fh + fa,
        floorName: 'human+adj',
        fn: () => {
          const s = summarize(db, study);
          return `${s.labels.toLocaleString('en')} labels, ${s.complete.toLocaleString('en')} complete, ${s.incomplete} incomplete, ${s.adjudicated.toLocaleString('en')} adjudicated`;
        },
      },
    ];
    console.log(`reports (bootstrap 0), ${ITEMS.toLocaleString('en')} items × ${criterionIds.length} criteria:`);
    const verdicts: string[] = [];
    for (const c of cases) {
      const { times, result } = timeIt(c.fn, RUNS);
      const s = summary(times);
      const within = s.median < BUDGET_MS;
      verdicts.push(`${c.name}: ${within ? 'within' : 'OVER'} budget`);
      console.log(
        `  ${c.name.padEnd(27)} ${ms(s.median)} (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})  floor ${c.floorName} ${c.floor.toFixed(0)} ms  ` +
          `ratio ${(s.median / c.floor).toFixed(2)}×  ${within ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget — ${result}`,
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
