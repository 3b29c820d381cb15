/**
 * Submit latency of the production server under annotators working at once, on a database of its own.
 * Run (after `npx next build`): npx tsx bench/load.ts      (BENCH_PORT, default 3196; BENCH_SEED)
 *
 * One flow study (1 reviewer per item), 50 annotators plus one more, each with their own queue; each
 * submission is GET assignment → POST submission over loopback (the answer to a submission names the next item;
 * the queue is asked for once at the start), as in e2e/load.spec.ts.
 * (a) one annotator alone, 50 submissions in a row: the latency of a submit on an idle server;
 * (b) 50 annotators each taking 0.5–1.5 s per item (about 50 submits/s offered), 20 submissions each;
 * (c) 50 annotators with no pause at all (a closed loop as fast as the server answers), 20 each, 10 % of
 *     submits retried and 2 % sent twice at once with the same request id — the end-to-end load test.
 * For scale, (info) times `GET /api/health` (no session, one `SELECT 1`): what any request costs on this machine.
 * Latency is that of every POST, from the client. Afterwards the database is checked: one annotation per
 * acknowledged submission, none doubled.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { latencySummary, runAnnotator, type AnnotatorResult } from '../e2e/support/load';
import { withOwnServer } from './own-server';
import {
  cliOn,
  cliOnAsync,
  integrityCheck,
  pool,
  seededRandom,
  signInOverHttp,
  withReadonlyDb,
  writeFlowsFile,
} from '../e2e/support/server';

const ANNOTATORS = 50;
const PER_ITEM = 20;
const SOLO = 50;
const PORT = Number(process.env.BENCH_PORT ?? 3196);
const SEED = Number(process.env.BENCH_SEED ?? 20261122);
const PASSWORD = 'bench-password';

async function main() {
  await withOwnServer('load', PORT, async ({ dir, db, server }) => {
    const users = Array.from({ length: ANNOTATORS }, (_, i) => `bench-${String(i + 1).padStart(2, '0')}`);
    const all = [...users, 'bench-solo'];
    cliOn(db, ['user', 'add', all[0], '--role', 'annotator'], `${PASSWORD}\n`);
    await pool(all.slice(1), 2, (u) => cliOnAsync(db, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`));
    const study = (
      JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', 'Bench', '--reviewers', '1', '--json'])) as { id: number }
    ).id;
    const perUser = Math.max(SOLO, 2 * PER_ITEM) + 2;
    cliOn(db, ['import', 'items', '--study', String(study), writeFlowsFile(dir, 'bench', all.length * perUser)]);
    cliOn(db, ['study', 'members', String(study), ...all]);
    cliOn(db, ['study', 'open', String(study)]);

    await server.start();
    const contexts = await pool(all, 5, (u) => signInOverHttp(server.baseURL, u, PASSWORD));
    const solo = contexts[ANNOTATORS];
    const crowd = contexts.slice(0, ANNOTATORS);
    const results: AnnotatorResult[] = [];
    const lines: string[] = [
      `Concord submit latency — node ${process.version}, ${os.cpus().length} cores, production build on loopback, seed ${SEED}`,
    ];

    // Warm-up: every route once, so that (a) does not time module loading.
    await runAnnotator(solo, { username: 'bench-solo', studyId: study, submissions: 2, random: () => 1, retryRate: 0, doubleRate: 0 });
    const health: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await solo.get('/api/health');
      health.push(performance.now() - t);
    }
    lines.push(`(info) GET /api/health, 200 in a row, one client: ${latencySummary(health)}`);

    let t0 = Date.now();
    const a = await runAnnotator(solo, {
      username: 'bench-solo',
      studyId: study,
      submissions: SOLO - 2,
      random: () => 1,
      retryRate: 0,
      doubleRate: 0,
      alreadySubmitted: 2,
    });
    results.push(a);
    lines.push(
      `(a) 1 annotator alone, ${SOLO - 2} submissions in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      `    ${latencySummary(a.latencies)}`,
    );

    t0 = Date.now();
    const b = await Promise.all(
      crowd.map((ctx, i) => {
        const random = seededRandom(SEED + i);
        return runAnnotator(ctx, {
          username: users[i],
          studyId: study,
          submissions: PER_ITEM,
          random,
          retryRate: 0,
          doubleRate: 0,
          thinkMs: () => 500 + 1000 * random(),
        });
      }),
    );
    results.push(...b);
    lines.push(
      `(b) ${ANNOTATORS} annotators, 0.5–1.5 s per item, ${ANNOTATORS * PER_ITEM} submissions in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      `    ${latencySummary(b.flatMap((r) => r.latencies))}`,
    );

    t0 = Date.now();
    const c = await Promise.all(
      crowd.map((ctx, i) =>
        runAnnotator(ctx, {
          username: users[i],
          studyId: study,
          submissions: PER_ITEM,
          random: seededRandom(SEED + 1000 + i),
          retryRate: 0.1,
          doubleRate: 0.02,
          alreadySubmitted: PER_ITEM,
        }),
      ),
    );
    results.push(...c);
    const seconds = (Date.now() - t0) / 1000;
    lines.push(
      `(c) ${ANNOTATORS} annotators, no pause, ${ANNOTATORS * PER_ITEM} submissions (${c.reduce((n, r) => n + r.retries, 0)} retried, ` +
        `${c.reduce((n, r) => n + r.doubles, 0)} sent twice at once) in ${seconds.toFixed(1)} s = ${((ANNOTATORS * PER_ITEM) / seconds).toFixed(0)} submissions/s`,
      `    ${latencySummary(c.flatMap((r) => r.latencies))}`,
    );

    const failures = results.flatMap((r) => r.failures);
    const acked = results.reduce((n, r) => n + r.acked.size, 0) + 2;
    const check = withReadonlyDb(db, (sql) => ({
      integrity: integrityCheck(sql),
      annotations: sql.prepare('SELECT count(*) FROM annotations').pluck().get() as number,
      doubled: sql
        .prepare('SELECT count(*) FROM (SELECT assignment_id FROM annotations GROUP BY assignment_id HAVING count(*) > 1)')
        .pluck()
        .get() as number,
    }));
    lines.push(
      `check: ${failures.length} failed requests; ${acked} acknowledged, ${check.annotations} annotations, ${check.doubled} assignments with more than one; integrity ${check.integrity}`,
    );
    console.log(lines.join('\n'));
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
    if (failures.length || check.annotations !== acked || check.doubled || check.integrity !== 'ok') {
      console.error(failures.slice(0, 10));
      process.exitCode = 1;
    }
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
