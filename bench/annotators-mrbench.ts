/**
 * Not a budget: the annotator quality report on the MRBench V3 demo study (issue 27) — its time, the Dawid–Skene and
 * MACE fits per dimension (iterations, converged), and the time of a second read (the fits cached, decision 0041).
 * Run: npx tsx --conditions=react-server bench/annotators-mrbench.ts
 *
 * Builds the demo's MRBench study in a temporary database the way the seed does (MRBench's gold labels as a prior
 * reviewer, ann1 and ann2's seed-made labels on 20 dialogues, the V1 run and the EvalKit judges when present), then
 * times `annotatorsReport` three times in this process. Needs the public data (CONCORD_PUBLIC_DATA).
 */
import os from 'node:os';
import { openBenchDatabase } from './pairwise-study';

const bench = openBenchDatabase('annotators-mrbench');

async function main() {
  const { getDb, closeDb } = await import('@/db/client');
  const { cliActor } = await import('@/lib/server/system/system');
  const { createUser } = await import('@/lib/server/accounts/users');
  const { RUBRIC_DEMO_STUDIES } = await import('@/lib/server/demo/rubric-demo');
  const { annotatorsReport } = await import('@/lib/server/analytics/annotators');
  const { modelFitCount } = await import('@/lib/server/ground-truth/model-gold');
  getDb();
  for (const u of ['ann1', 'ann2', 'adj'])
    await createUser(cliActor(), { username: u, displayName: u, password: 'password-123', role: 'annotator' });
  const study = RUBRIC_DEMO_STUDIES.find((s) => s.name === 'MRBench V3 dev set')!;
  const t0 = performance.now();
  study.make(
    cliActor(),
    () => {},
    (m) => console.log(`SKIPPED ${m}`),
  );
  console.log(`built the MRBench demo study in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const studyId = getDb().$client.prepare("SELECT id FROM studies WHERE name = 'MRBench V3 dev set'").pluck().get() as number;
  const lead = cliActor();
  for (let run = 1; run <= 3; run++) {
    const before = modelFitCount();
    const t = performance.now();
    const report = annotatorsReport(lead, studyId);
    const took = performance.now() - t;
    console.log(
      `run ${run}: ${(took / 1000).toFixed(2)} s, ${modelFitCount() - before} EM fits; ` +
        report.units.map((u) => `${u.unit} ds=${u.dsConverged} mace=${u.maceConverged}`).join(', '),
    );
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${os.cpus().length} cores`,
  );
  closeDb();
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => bench.remove());
