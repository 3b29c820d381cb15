/*
 * Starting a judge run on a large study: `launchJudgeRun` counts the run's requests in the server's own request (so
 * its status is right before the runner process claims it), which must stay short enough not to hold up the
 * annotators' requests. A pairwise study of 100,000 items (4 criteria and overall, both orders: 1,000,000 requests),
 * a third of the items naming principles; each launch a new run name, median of 5 after a warm-up.
 * Floor: SQLite reading every item's payload once (`SELECT sum(length(payload))`), which no count can skip.
 *
 *   npx tsx --conditions=react-server bench/judge-launch.ts [ITEMS=100000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ITEMS = Number(process.argv[2] ?? 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-bench-launch-'));
process.env.CONCORD_DB = path.join(dir, 'bench.db');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const { getDb, closeDb } = await import('@/db/client');
  const { cliActor } = await import('@/lib/server/system/system');
  const { createStudy, setStudyCriteria } = await import('@/lib/server/studies/studies');
  const { importItems } = await import('@/lib/server/imports/imports');
  const { launchJudgeRunAtUrl: launchJudgeRun, judgeRunStatus } = await import('@/lib/server/judges/judges');
  const { PAIRWISE_CRITERION_TEMPLATE } = await import('@/lib/validation/judge-templates');

  const db = getDb();
  const admin = cliActor();
  const studyId = createStudy(admin, { kind: 'pairwise', name: 'Launch bench', reviewersPerItem: 1 }).id;
  setStudyCriteria(admin, studyId, [
    { id: 'c0', name: 'Criterion 0', level: 'general', description: 'Which is clearer?' },
    { id: 'c1', name: 'Criterion 1', level: 'general', description: 'Which is kinder?' },
    { id: 'c2', name: 'Criterion 2', level: 'principle', principle: 'Practice', description: 'Which gives practice?' },
    { id: 'c3', name: 'Criterion 3', level: 'principle', principle: 'Feedback', description: 'Which gives feedback?' },
  ]);
  const file = path.join(dir, 'items.jsonl');
  const out = fs.createWriteStream(file);
  for (let i = 0; i < ITEMS; i++) {
    const principles = i % 3 === 0 ? { principles: i % 2 ? ['Practice'] : ['Practice', 'Feedback'] } : {};
    out.write(
      `${JSON.stringify({ id: `it-${i}`, problem: `What is ${i} + ${i}?`, history: [{ role: 'student', text: `Is it ${i}?` }], a: { source: 'x', text: `Try again: ${i}.` }, b: { source: 'y', text: `It is ${2 * i}.` }, ...principles })}\n`,
    );
  }
  await new Promise((r) => out.end(r));
  importItems(admin, studyId, file, 'concord');

  const floorQuery = db.$client.prepare('SELECT sum(length(payload)) FROM items WHERE study_id = ?').pluck();
  const floor: number[] = [];
  const launch: number[] = [];
  let requests = 0;
  for (let k = 0; k <= 5; k++) {
    let t0 = performance.now();
    floorQuery.get(studyId);
    if (k) floor.push(performance.now() - t0);
    t0 = performance.now();
    const r = launchJudgeRun(admin, studyId, {
      name: `run-${k}`,
      endpoint: 'http://127.0.0.1:9/v1',
      model: 'bench',
      template: PAIRWISE_CRITERION_TEMPLATE,
      bothOrders: true,
    });
    if (k) launch.push(performance.now() - t0);
    requests = judgeRunStatus(admin, r.runId).requests;
  }
  const load = os.loadavg().map((x) => x.toFixed(2));
  console.log(
    `study: ${ITEMS.toLocaleString('en-US')} items, ${requests.toLocaleString('en-US')} requests per run; load average ${load.join(' ')}`,
  );
  console.log(`  floor: read every payload once   ${median(floor).toFixed(1)} ms`);
  console.log(
    `  launchJudgeRun (count included)   ${median(launch).toFixed(1)} ms (min ${Math.min(...launch).toFixed(0)}, max ${Math.max(...launch).toFixed(0)})  ratio ${(median(launch) / median(floor)).toFixed(2)}×`,
  );
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
