/**
 * Budget "a rubric study of 100,000 replies × 4 dimensions, two reviewers each, plus two judge runs — every rubric
 * report under 1 s" (issue 12, in the style of bench/dashboards.ts).
 * Run: npx tsx --conditions=react-server bench/rubric-dashboards.ts
 *
 * Builds a temporary rubric study with the MRBench V3 catalog (No / To some extent / Yes, lenient map): 8 tutors ×
 * 12,500 replies in groups of 8 (one dialogue, one reply per tutor), two reviewers per reply, each agreeing with a
 * latent truth 85 % of the time; disagreements adjudicated except on every 100th reply (left open); every 50th
 * assignment has two revisions (the newest counts). Two judge runs label every reply on every dimension, right
 * 75 % and 65 % of the time, the first with a second sample. Rows go in with plain SQL that respects the schema; the
 * packs (annotation packs, migration 0007; judge packs, migration 0012) are written by the schema's triggers. Then
 * each rubric report is timed with the bootstrap off — median of 3 runs after a warm-up — beside the floor:
 * better-sqlite3 streaming the rows the reports read (annotation packs, rulings, judge packs). The certification
 * (confidence sequence on one dimension, alternative annotator test on all) and the bias report (leniency, length
 * bias of both runs) also read each reply's settle time and length.
 */
import os from 'node:os';
import { mulberry32 } from '@/lib/assign/random';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { ms, openBenchDatabase, summary, timeIt } from './pairwise-study';

const RUNS = 3;
const BUDGET_MS = 1000;
const TUTORS = 8;
const REPLIES_PER_TUTOR = 12_500;
const REPLIES = TUTORS * REPLIES_PER_TUTOR;
const D = MRBENCH_V3_CATALOG.length;
const JUDGES = ['judge-a', 'judge-b'] as const;

async function build() {
  const t0 = performance.now();
  const { getDb } = await import('@/db/client');
  const sql = getDb().$client;
  const addUser = sql.prepare('INSERT INTO users (username, display_name, role, active) VALUES (?, ?, ?, 1) RETURNING id').pluck();
  const leadId = addUser.get('benchlead', 'Bench lead', 'lead') as number;
  const r1 = addUser.get('benchr1', 'Reviewer one', 'annotator') as number;
  const r2 = addUser.get('benchr2', 'Reviewer two', 'annotator') as number;
  const adj = addUser.get('benchadj', 'Adjudicator', 'annotator') as number;
  const studyId = sql
    .prepare(
      "INSERT INTO studies (kind, name, status, reviewers_per_item, seed, principles, criteria, adjudicator_id, created_by, opened_at) VALUES ('rubric', 'Bench rubric 100k', 'open', 2, 7, '[]', ?, ?, ?, ?) RETURNING id",
    )
    .pluck()
    .get(JSON.stringify(MRBENCH_V3_CATALOG), adj, leadId, Date.now()) as number;
  sql.pragma('synchronous = OFF');
  const insertItem = sql
    .prepare(
      'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, group_key) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
    )
    .pluck();
  const insertAssignment = sql
    .prepare(
      "INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, swapped, state, active_ms, submitted_at) VALUES (?, ?, ?, ?, ?, 0, 'submitted', 30000, ?) RETURNING id",
    )
    .pluck();
  const insertAnnotation = sql
    .prepare('INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, ?, ?, ?) RETURNING id')
    .pluck();
  const insertLabel = sql.prepare('INSERT INTO rubric_labels (annotation_id, dimension, label) VALUES (?, ?, ?)');
  const insertRuling = sql.prepare(
    'INSERT INTO rubric_adjudications (item_id, dimension, revision, label, adjudicator_id, request_id) VALUES (?, ?, 1, ?, ?, ?)',
  );
  const insertRun = sql
    .prepare(
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, ?, 'concord', 'bench.jsonl', '[]', ?) RETURNING id",
    )
    .pluck();
  const insertVerdict = sql.prepare('INSERT INTO rubric_judge_labels (run_id, item_id, dimension, sample, label) VALUES (?, ?, ?, ?, ?)');
  const runIds = JUDGES.map((name) => insertRun.get(studyId, name, leadId) as number);
  const random = mulberry32(20251123);
  const counts = { items: 0, annotations: 0, labels: 0, rulings: 0, judgeLabels: 0 };
  const truth = new Int8Array(D);
  const lab = [new Int8Array(D), new Int8Array(D)];
  const now = Date.now();
  const itemIds: number[] = [];
  sql
    .transaction(() => {
      for (let k = 0; k < REPLIES; k++) {
        const dialogue = Math.floor(k / TUTORS);
        const tutor = `tutor-${(k % TUTORS) + 1}`;
        const ext = `bench-${dialogue}-${tutor}`;
        const payload = JSON.stringify({
          id: ext,
          group: `dialogue-${dialogue}`,
          history: [
            { role: 'tutor', text: 'What is 7 × 8?' },
            { role: 'student', text: `I think it is ${54 + (dialogue % 5)}.` },
          ],
          reply: { source: tutor, text: 'Close! Check the last step: what is 7 × 8 again?' },
        });
        const itemId = insertItem.get(studyId, ext, k + 1, payload, `bench-${k}`, tutor, `dialogue-${dialogue}`) as number;
        itemIds.push(itemId);
        counts.items++;
        const skill = 0.3 + (0.6 * (k % TUTORS)) / (TUTORS - 1);
        for (let d = 0; d < D; d++) {
          const u = random();
          truth[d] = u < skill ? 2 : u < skill + 0.15 ? 1 : 0;
          for (const l of lab) l[d] = random() < 0.85 ? truth[d] : Math.floor(random() * 3);
        }
        for (let s = 0; s < 2; s++) {
          const user = s === 0 ? r1 : r2;
          const assignmentId = insertAssignment.get(studyId, itemId, user, s + 1, k + 1, now) as number;
          const revisions = k % 50 === 0 ? 2 : 1;
          for (let rev = 1; rev <= revisions; rev++) {
            const annotationId = insertAnnotation.get(assignmentId, rev, `bench-${assignmentId}-${rev}`, user) as number;
            counts.annotations++;
            for (let d = 0; d < D; d++) {
              insertLabel.run(annotationId, d, rev < revisions ? 1 : lab[s][d]);
              counts.labels++;
            }
          }
        }
        if (k % 100 !== 0) {
          for (let d = 0; d < D; d++) {
            if (lab[0][d] === lab[1][d]) continue;
            insertRuling.run(itemId, d, truth[d], adj, `bench-adj-${itemId}-${d}`);
            counts.rulings++;
          }
        }
        runIds.forEach((runId, j) => {
          const right = j === 0 ? 0.75 : 0.65;
          for (let sample = 1; sample <= (j === 0 ? 2 : 1); sample++) {
            for (let d = 0; d < D; d++) {
              insertVerdict.run(runId, itemId, d, sample, random() < right ? truth[d] : Math.floor(random() * 3));
              counts.judgeLabels++;
            }
          }
        });
      }
    })
    .immediate();
  sql.pragma('synchronous = FULL');
  sql.pragma('wal_checkpoint(TRUNCATE)');
  return { studyId, leadId, runIds, counts, buildMs: performance.now() - t0 };
}

async function main() {
  const bench = openBenchDatabase('rubric-dashboards');
  try {
    const built = await build();
    const { getDb } = await import('@/db/client');
    const { rubricAgreementReport } = await import('@/lib/server/analytics/agreement');
    const { alignmentReport } = await import('@/lib/server/analytics/alignment');
    const { leaderboardReport } = await import('@/lib/server/analytics/leaderboard');
    const { hybridReport } = await import('@/lib/server/analytics/hybrid');
    const { certifyReport } = await import('@/lib/server/analytics/certify');
    const { biasReport } = await import('@/lib/server/analytics/bias');
    const { rubricGroundTruthCodes } = await import('@/lib/server/ground-truth/rubric-codes');
    const { findStudy } = await import('@/db/queries/studies');
    const db = getDb();
    const sql = db.$client;
    const lead = { id: built.leadId, username: 'benchlead', displayName: 'Bench lead', role: 'lead' as const };
    const { studyId } = built;
    const study = findStudy(db, studyId)!;
    console.log(
      `Concord rubric dashboards benchmark — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after a warm-up; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `study: ${built.counts.items.toLocaleString('en')} replies × ${D} dimensions, ${built.counts.labels.toLocaleString('en')} reviewer labels ` +
        `(${built.counts.annotations.toLocaleString('en')} annotations), ${built.counts.rulings.toLocaleString('en')} rulings, ` +
        `${built.counts.judgeLabels.toLocaleString('en')} judge labels in ${JUDGES.length} runs; built in ${(built.buildMs / 1000).toFixed(1)} s (not timed)`,
    );
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
      console.log(`  ${label.padEnd(30)} ${ms(median)}   ${t.result.toLocaleString('en')} rows`);
      return median;
    };
    console.log('floors (raw better-sqlite3 .raw().iterate() of the rows the reports read):');
    const fh = floor(
      'annotation packs',
      stream('SELECT item_id, slot, revision, user_id, packed FROM annotation_packs WHERE study_id = ?', studyId),
    );
    const [lo, hi] = sql.prepare('SELECT min(id), max(id) FROM items WHERE study_id = ?').raw().get(studyId) as [number, number];
    const fa = floor('rulings', stream('SELECT item_id, dimension, label FROM rubric_adjudications WHERE item_id BETWEEN ? AND ?', lo, hi));
    const fj = floor(
      'judge packs, one run, sample 1',
      stream('SELECT item_id, packed FROM rubric_judge_label_packs WHERE run_id = ? AND sample = 1', built.runIds[0]),
    );
    console.log('(info) the verdict rows themselves, one run, sample 1:');
    floor(
      'judge labels',
      stream('SELECT item_id, dimension, label FROM rubric_judge_labels WHERE run_id = ? AND sample = 1', built.runIds[0]),
    );

    const json = (x: unknown) => `${JSON.stringify(x).length.toLocaleString('en')} B of JSON`;
    const cases: { name: string; floor: number; floorName: string; fn: () => string }[] = [
      {
        name: 'rubricGroundTruthCodes',
        floor: fh + fa,
        floorName: 'packs+rulings',
        fn: () => {
          const g = rubricGroundTruthCodes(db, study);
          return `${g.labels.toLocaleString('en')} labels, ${g.incompleteItems} incomplete replies, ${g.adjudicated.toLocaleString('en')} adjudicated`;
        },
      },
      {
        name: 'rubricAgreementReport',
        floor: fh,
        floorName: 'packs',
        fn: () => json(rubricAgreementReport(lead, studyId, { bootstrap: 0 })),
      },
      {
        name: 'alignmentReport (rubric)',
        floor: fh + fa + fj,
        floorName: 'packs+rulings+judge',
        fn: () => json(alignmentReport(lead, studyId, 'rubric-alignment', { judge: JUDGES[0], bootstrap: 0 })),
      },
      {
        name: 'alignmentReport (rubric, s. 2)',
        floor: fh + fa + fj,
        floorName: 'packs+rulings+judge',
        fn: () => json(alignmentReport(lead, studyId, 'rubric-alignment', { judge: JUDGES[0], sample: 2, bootstrap: 0 })),
      },
      {
        name: 'rubricLeaderboardReport',
        floor: fh + fa + 2 * fj,
        floorName: 'packs+rulings+2 judges',
        fn: () => json(leaderboardReport(lead, studyId, {}, 'rubric')),
      },
      {
        name: 'rubricHybridReport (lenient)',
        floor: fh + fa + fj,
        floorName: 'packs+rulings+judge',
        fn: () => json(hybridReport(lead, studyId, { judge: JUDGES[0], criterion: 'mistake_identification', lenient: true }, 'rubric')),
      },
      {
        name: 'rubricCertifyReport',
        floor: fh + fa + fj,
        floorName: 'packs+rulings+judge',
        fn: () => json(certifyReport(lead, studyId, { judge: JUDGES[0], criterion: 'mistake_identification' }, 'rubric')),
      },
      {
        name: 'rubricBiasReport',
        floor: fh + fa + 2 * fj,
        floorName: 'packs+rulings+2 judges',
        fn: () => json(biasReport(lead, studyId, 'rubric-bias')),
      },
    ];
    console.log(`reports (bootstrap 0), ${REPLIES.toLocaleString('en')} replies × ${D} dimensions:`);
    for (const c of cases) {
      const { times, result } = timeIt(c.fn, RUNS);
      const s = summary(times);
      const within = s.median < BUDGET_MS;
      console.log(
        `  ${c.name.padEnd(29)} ${ms(s.median)} (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})  floor ${c.floorName} ${c.floor.toFixed(0)} ms  ` +
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
