/**
 * Shared by the dashboard and export benchmarks: a temporary database holding one pairwise study of
 * 20 models × 5,000 items × 10 criteria = 1,000,000 criterion-level ground-truth labels, built with plain SQL
 * inserts that respect the schema (items with source_a, submitted assignments, annotations, labels,
 * adjudications, one judge run). The packed labels the dashboards read (migration 0007) are written by the
 * schema's triggers as these rows go in, as for every other writer.
 *
 * - two reviewers per item (2,000,000 human labels); every 50th assignment has two revisions (the first all
 *   `tie`, the second counting), so the newest-revision rule is exercised;
 * - reviewers agree with a latent truth 85 % of the time; each disagreement is adjudicated, except on every
 *   100th item, which stays incomplete (left out of the ground truth);
 * - one judge run (`bench-judge`) with a verdict per item and criterion, right 72 % of the time.
 *
 * Usage: `const bench = await openBenchDatabase('dashboards')` BEFORE importing any app module, then
 * `const s = await buildPairwiseStudy()`, and `bench.remove()` at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mulberry32 } from '@/lib/assign/random';

export const MODELS = 20;
export const ITEMS_PER_MODEL = 5_000;
export const ITEMS = MODELS * ITEMS_PER_MODEL;
export const JUDGE = 'bench-judge';
export const CATALOG = [
  { id: 'coherence', name: 'Coherence', level: 'general', description: 'Which reply follows the dialogue better?' },
  { id: 'correctness', name: 'Correctness', level: 'general', description: 'Which reply is mathematically right?' },
  { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
  { id: 'student_focus', name: 'Student focus', level: 'general', description: 'Which reply builds on what the student said?' },
  { id: 'practice_fit', name: 'Practice fit', level: 'principle', principle: 'Practice', description: 'Which practice task fits?' },
  {
    id: 'practice_level',
    name: 'Practice level',
    level: 'principle',
    principle: 'Practice',
    description: 'Which task has the right difficulty?',
  },
  { id: 'practice_use', name: 'Practice use', level: 'principle', principle: 'Practice', description: 'Which task uses the materials?' },
  {
    id: 'feedback_specific',
    name: 'Specific feedback',
    level: 'principle',
    principle: 'Feedback',
    description: 'Which feedback is specific?',
  },
  { id: 'feedback_tone', name: 'Feedback tone', level: 'principle', principle: 'Feedback', description: 'Which feedback is kinder?' },
] as const;
export const CRITERIA = [...CATALOG.map((c) => c.id), 'overall'];
const LABEL = ['lose', 'tie', 'win'] as const;

/** Sets CONCORD_DB to a fresh temporary file (call before importing app modules). */
export function openBenchDatabase(tag: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `concord-bench-${tag}-`));
  const file = path.join(dir, 'bench.db');
  process.env.CONCORD_DB = file;
  return {
    dir,
    file,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export type BuiltStudy = {
  studyId: number;
  leadId: number;
  judgeRunId: number;
  counts: { items: number; assignments: number; annotations: number; labels: number; adjudications: number; judgeLabels: number };
  buildMs: number;
};

export async function buildPairwiseStudy(): Promise<BuiltStudy> {
  const t0 = performance.now();
  const { getDb } = await import('@/db/client');
  const { createStudy, setStudyCriteria } = await import('@/lib/server/studies/studies');
  const { cliActor } = await import('@/lib/server/system/system');
  const db = getDb();
  const sql = db.$client;
  const admin = cliActor();
  const addUser = sql.prepare('INSERT INTO users (username, display_name, role, active) VALUES (?, ?, ?, 1) RETURNING id').pluck();
  const leadId = addUser.get('benchlead', 'Bench lead', 'lead') as number;
  const r1 = addUser.get('benchr1', 'Reviewer one', 'annotator') as number;
  const r2 = addUser.get('benchr2', 'Reviewer two', 'annotator') as number;
  const adj = addUser.get('benchadj', 'Adjudicator', 'annotator') as number;
  const studyId = createStudy(admin, { kind: 'pairwise', name: 'Bench 1M labels', reviewersPerItem: 2, seed: 7 }).id;
  setStudyCriteria(admin, studyId, CATALOG);
  sql.prepare("UPDATE studies SET status = 'open', opened_at = ?, adjudicator_id = ? WHERE id = ?").run(Date.now(), adj, studyId);

  const random = mulberry32(20251122);
  const counts = { items: 0, assignments: 0, annotations: 0, labels: 0, adjudications: 0, judgeLabels: 0 };
  // The build is not what is measured: relax durability while it runs, restore FULL afterwards.
  sql.pragma('synchronous = OFF');
  const insertItem = sql
    .prepare(
      'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, source_b) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
    )
    .pluck();
  const insertAssignment = sql
    .prepare(
      "INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, swapped, state, active_ms, submitted_at) VALUES (?, ?, ?, ?, ?, ?, 'submitted', 30000, ?) RETURNING id",
    )
    .pluck();
  const insertAnnotation = sql
    .prepare('INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, ?, ?, ?) RETURNING id')
    .pluck();
  const insertLabel = sql.prepare('INSERT INTO labels (annotation_id, criterion, label, screen_choice) VALUES (?, ?, ?, ?)');
  const insertAdjudication = sql.prepare(
    'INSERT INTO adjudications (item_id, criterion, revision, label, rationale, adjudicator_id, request_id) VALUES (?, ?, 1, ?, ?, ?, ?)',
  );
  const judgeRunId = sql
    .prepare(
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, ?, 'concord', 'bench.jsonl', '[]', ?) RETURNING id",
    )
    .pluck()
    .get(studyId, JUDGE, leadId) as number;
  const insertJudge = sql.prepare('INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, 0, ?)');
  const C = CRITERIA.length;
  const truth = new Int8Array(C);
  const lab1 = new Int8Array(C);
  const lab2 = new Int8Array(C);
  const now = Date.now();

  sql
    .transaction(() => {
      let pos = 0;
      for (let m = 0; m < MODELS; m++) {
        const model = `model-${String(m + 1).padStart(2, '0')}`;
        const winShare = 0.2 + (0.5 * m) / (MODELS - 1);
        for (let k = 0; k < ITEMS_PER_MODEL; k++) {
          const i = pos++;
          const ext = `bench-${model}-${String(k).padStart(5, '0')}`;
          const payload = JSON.stringify({
            id: ext,
            problem: `A baker makes ${k + 12} muffins and sells ${(k % 11) + 1} boxes of 6. How many are left? (${model})`,
            principles: ['Practice', 'Feedback'],
            history: [
              { role: 'tutor', text: 'What did you try first?' },
              { role: 'student', text: `I multiplied ${(k % 11) + 1} by 6 and took it away.` },
            ],
            a: { source: model, text: `Good start. What is ${(k % 11) + 1} × 6? Check that step again, then subtract it from ${k + 12}.` },
            b: { source: 'reference', text: 'You are on the right track: write the multiplication first, then the subtraction.' },
          });
          const itemId = insertItem.get(studyId, ext, i + 1, payload, `bench-${i}`, model, 'reference') as number;
          counts.items++;
          for (let c = 0; c < C; c++) {
            const u = random();
            const t = u < winShare ? 2 : u < winShare + 0.2 ? 1 : 0;
            truth[c] = t;
            lab1[c] = random() < 0.85 ? t : Math.floor(random() * 3);
            lab2[c] = random() < 0.85 ? t : Math.floor(random() * 3);
          }
          for (const [slot, user, labs] of [
            [1, r1, lab1],
            [2, r2, lab2],
          ] as const) {
            const swapped = random() < 0.5 ? 1 : 0;
            const assignmentId = insertAssignment.get(studyId, itemId, user, slot, k + m * ITEMS_PER_MODEL + 1, swapped, now) as number;
            counts.assignments++;
            const revisions = i % 50 === 0 ? 2 : 1;
            for (let rev = 1; rev <= revisions; rev++) {
              const annotationId = insertAnnotation.get(assignmentId, rev, `bench-${assignmentId}-${rev}`, user) as number;
              counts.annotations++;
              for (let c = 0; c < C; c++) {
                const code = rev < revisions ? 1 : labs[c];
                const screen = code === 1 ? 'tie' : (code === 2) !== (swapped === 1) ? 'r1' : 'r2';
                insertLabel.run(annotationId, CRITERIA[c], LABEL[code], screen);
                counts.labels++;
              }
            }
          }
          if (i % 100 !== 0) {
            for (let c = 0; c < C; c++) {
              if (lab1[c] === lab2[c]) continue;
              const ruling = truth[c];
              const rationale = ruling !== lab1[c] && ruling !== lab2[c] ? 'Both reviewers missed the point.' : null;
              insertAdjudication.run(itemId, CRITERIA[c], LABEL[ruling], rationale, adj, `bench-adj-${itemId}-${c}`);
              counts.adjudications++;
            }
          }
          for (let c = 0; c < C; c++) {
            const v = random() < 0.72 ? truth[c] : random() < 0.6 ? 2 : Math.floor(random() * 3);
            insertJudge.run(judgeRunId, itemId, CRITERIA[c], LABEL[v]);
            counts.judgeLabels++;
          }
        }
      }
    })
    .immediate();
  sql.pragma('synchronous = FULL');
  sql.pragma('wal_checkpoint(TRUNCATE)');
  return { studyId, leadId, judgeRunId, counts, buildMs: performance.now() - t0 };
}

/** Median, min and max of timed runs (ms). */
export function summary(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1] };
}

/** Runs `fn` once as a warm-up, then `runs` times; returns the times in ms and the last result. */
export function timeIt<T>(fn: () => T, runs: number): { times: number[]; result: T } {
  let result = fn();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    result = fn();
    times.push(performance.now() - t);
  }
  return { times, result };
}

export const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;
