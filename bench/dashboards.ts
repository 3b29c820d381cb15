/**
 * Budget "Dashboards: one million criterion-level labels summarised in under a second" (DESIGN, Budgets).
 * Run: npx tsx --conditions=react-server bench/dashboards.ts
 *
 * Builds a temporary pairwise study of 20 models × 5,000 items × 10 criteria (bench/pairwise-study.ts), then
 * times each report with the bootstrap off — agreementReport, alignmentReport, leaderboardReport (with its judge-corrected
 * win rates and rank agreement), hybridReport, certifyReport, biasReport —
 * and groundTruthCodes / summarize from lib/server/ground-truth/ground-truth.ts (the row-by-row `groundTruth` is timed by export.ts): median of 3 runs after a
 * warm-up. The floor is plain better-sqlite3 streaming (`.raw().iterate()`) the rows the report reads, the packed
 * labels of migration 0007: annotation packs (agreement), + adjudication packs (ground truth), + judge packs
 * (alignment, leaderboard, hybrid). Printed for information: the same packs joined into texts by SQLite (what the
 * readers actually fetch), and the old floor, the label rows themselves.
 */
import os from 'node:os';
import type { Db } from '@/db/client';
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
    const { certifyReport } = await import('@/lib/server/analytics/certify');
    const { biasReport } = await import('@/lib/server/analytics/bias');
    const { groundTruthCodes, summarize } = await import('@/lib/server/ground-truth/ground-truth');
    const { studyCriteria } = await import('@/lib/server/analytics/data');
    const { annotationPackText, adjudicationPackText, judgeLabelPackText } = await import('@/db/queries/packs');
    const db = getDb();
    const sql = db.$client;
    const lead = { id: built.leadId, username: 'benchlead', displayName: 'Bench lead', role: 'lead' as const };
    const { studyId, judgeRunId } = built;
    const study = findStudy(db, studyId)!;
    const criterionIds = studyCriteria(study).map((c) => c.id);

    console.log(
      `Concord dashboards benchmark — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after a warm-up; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `study: ${built.counts.items.toLocaleString('en')} items, ${built.counts.labels.toLocaleString('en')} human label rows ` +
        `(${built.counts.annotations.toLocaleString('en')} annotations), ${built.counts.adjudications.toLocaleString('en')} adjudications, ` +
        `${built.counts.judgeLabels.toLocaleString('en')} judge labels; built in ${(built.buildMs / 1000).toFixed(1)} s (not timed)`,
    );

    // Floors: the rows each report reads (the packs), streamed by plain better-sqlite3.
    const stream =
      (text: string, ...args: unknown[]) =>
      () => {
        let rows = 0;
        for (const _ of sql
          .prepare(text)
          .raw()
          .iterate(...args))
          rows++;
        return rows;
      };
    const floor = (label: string, fn: () => number) => {
      const t = timeIt(fn, RUNS);
      const median = summary(t.times).median;
      console.log(
        `  ${label.padEnd(38)} ${ms(median)}   ${t.result.toLocaleString('en')} ${label.includes('text') ? 'characters' : 'rows'}`,
      );
      return median;
    };
    console.log('floors (raw better-sqlite3 .raw().iterate() of the rows the reports read, rows counted):');
    const fh = floor(
      'annotation packs',
      stream('SELECT item_id, slot, revision, user_id, packed FROM annotation_packs WHERE study_id = ?', studyId),
    );
    const fa = floor('adjudication packs', stream('SELECT item_id, packed FROM adjudication_packs WHERE study_id = ?', studyId));
    const fj = floor('judge packs', stream('SELECT item_id, packed FROM judge_label_packs WHERE run_id = ?', judgeRunId));
    console.log('(info) the same packs joined into texts by SQLite, as the readers fetch them (db/queries/packs.ts):');
    const text = (fn: (db: Db, key: number, from: number, to: number) => string, key: number) => () =>
      fn(db, key, 0, Number.MAX_SAFE_INTEGER).length;
    floor('annotation pack text', text(annotationPackText, studyId));
    floor('adjudication pack text', text(adjudicationPackText, studyId));
    floor('judge pack text', text(judgeLabelPackText, judgeRunId));
    console.log('(info) the old floor, the label rows themselves:');
    floor(
      'human labels, newest revision',
      stream(
        `SELECT a.item_id, a.slot, l.criterion, l.label FROM assignments a
           JOIN annotations an ON an.assignment_id = a.id AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
           JOIN labels l ON l.annotation_id = an.id
          WHERE a.study_id = ? AND a.state = 'submitted'`,
        studyId,
      ),
    );
    floor(
      'adjudications',
      stream('SELECT j.item_id, j.criterion, j.label FROM adjudications j JOIN items i ON i.id = j.item_id WHERE i.study_id = ?', studyId),
    );
    floor('judge labels', stream('SELECT item_id, criterion, swapped, label FROM judge_labels WHERE run_id = ?', judgeRunId));

    const cases: { name: string; floor: number; floorName: string; fn: () => string }[] = [
      {
        name: 'agreementReport',
        floor: fh,
        floorName: 'packs',
        fn: () => {
          const r = agreementReport(lead, studyId, { bootstrap: 0 });
          return `${JSON.stringify(r).length.toLocaleString('en')} B of JSON`;
        },
      },
      {
        name: 'alignmentReport',
        floor: fh + fa + fj,
        floorName: 'packs+adj+judge',
        fn: () =>
          `${JSON.stringify(alignmentReport(lead, studyId, 'alignment', { judge: JUDGE, bootstrap: 0 })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'leaderboardReport',
        floor: fh + fa + fj,
        floorName: 'packs+adj+judge',
        fn: () => `${JSON.stringify(leaderboardReport(lead, studyId, { bootstrap: 0 })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'hybridReport (overall)',
        floor: fh + fa + fj,
        floorName: 'packs+adj+judge',
        fn: () =>
          `${JSON.stringify(hybridReport(lead, studyId, { judge: JUDGE, criterion: 'overall' })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'certifyReport (overall)',
        floor: fh + fa + fj,
        floorName: 'packs+adj+judge',
        fn: () =>
          `${JSON.stringify(certifyReport(lead, studyId, { judge: JUDGE, criterion: 'overall' })).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'biasReport',
        floor: fh + fa + fj,
        floorName: 'packs+adj+judge',
        fn: () => `${JSON.stringify(biasReport(lead, studyId, 'bias')).length.toLocaleString('en')} B of JSON`,
      },
      {
        name: 'groundTruthCodes',
        floor: fh + fa,
        floorName: 'packs+adj',
        fn: () => {
          const g = groundTruthCodes(db, study, criterionIds);
          return `${g.labels.toLocaleString('en')} labels, ${g.incompleteItems} incomplete items`;
        },
      },
      {
        name: 'summarize',
        floor: fh + fa,
        floorName: 'packs+adj',
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
