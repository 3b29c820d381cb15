/**
 * Does the app stay responsive while a large import runs? Budget (issue "speed"): another annotator's submit
 * p95 < 500 ms during an import of 150,000 flows.
 * Run (after `npx next build`): npx tsx --conditions=react-server bench/import-during-load.ts
 *   (BENCH_PORT, default 3195; FLOWS, default 150000; ANNOTATORS, default 10)
 *
 * The production server (`next start`) on a database of its own with one open flow study in which ANNOTATORS
 * reviewers work (0.5–1.5 s per item, each submission GET assignment → POST submission over loopback), and a draft
 * study into which the real CLI (`node lib/cli/bin.mjs import items`, a separate process, as a lead would run it)
 * imports FLOWS MathDial-derived flows. Reported: every POST's latency before the import (the baseline: the same
 * submit with nothing else writing) and while it runs, failed requests, the import's wall time, and a check that
 * every acknowledged submission and every imported item is stored.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { latencySummary, percentile, runAnnotator, type Failure } from '@/e2e/support/load';
import { cliOn, cliOnAsync, pool, seededRandom, signInOverHttp, withReadonlyDb, writeFlowsFile } from '@/e2e/support/server';
import { conditions, withOwnServer } from './own-server';
import { writeMathdialFlows } from './mathdial-flows';

const PORT = Number(process.env.BENCH_PORT ?? 3195);
const FLOWS = Number(process.env.FLOWS ?? 150_000);
const ANNOTATORS = Number(process.env.ANNOTATORS ?? 10);
const BASELINE_MS = 15_000;
const AFTER_MS = 3_000;
const BUDGET_MS = 500;
const PASSWORD = 'bench-password';

type Sample = { at: number; ms: number };

async function main() {
  await withOwnServer('import-load', PORT, async ({ dir, db, server }) => {
    const users = Array.from({ length: ANNOTATORS }, (_, i) => `rev-${String(i + 1).padStart(2, '0')}`);
    cliOn(db, ['user', 'add', users[0], '--role', 'annotator'], `${PASSWORD}\n`);
    await pool(users.slice(1), 2, (u) => cliOnAsync(db, ['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`));
    const create = (name: string) =>
      (JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', name, '--reviewers', '1', '--json'])) as { id: number })
        .id;
    const working = create('Reviewing');
    cliOn(db, ['import', 'items', '--study', String(working), writeFlowsFile(dir, 'working', ANNOTATORS * 300)]);
    cliOn(db, ['study', 'members', String(working), ...users]);
    cliOn(db, ['study', 'open', String(working)]);
    const target = create('Large import');
    const big = path.join(dir, 'big.jsonl');
    const { bytes } = await writeMathdialFlows(big, FLOWS);

    await server.start();
    const contexts = await pool(users, 5, (u) => signInOverHttp(server.baseURL, u, PASSWORD));
    const random = seededRandom(20261122);
    const samples: Sample[] = [];
    const failures: Failure[] = [];
    const acked: number[] = [];
    let stop = false;
    const workers = contexts.map(async (ctx, i) => {
      let done = 0;
      while (!stop) {
        const r = await runAnnotator(ctx, {
          username: users[i],
          studyId: working,
          submissions: 1,
          random: () => 1,
          retryRate: 0,
          doubleRate: 0,
          alreadySubmitted: done,
          thinkMs: () => 500 + random() * 1000,
        });
        const end = performance.now();
        for (const ms of r.latencies) samples.push({ at: end - ms, ms });
        failures.push(...r.failures);
        done += r.acked.size;
        acked.push(...r.acked.keys());
      }
    });

    const lines = [
      `Concord: submits while a large import runs — ${conditions()}, production build on loopback`,
      `${ANNOTATORS} annotators reviewing (0.5–1.5 s per item); import of ${FLOWS.toLocaleString('en')} flows (${(bytes / 1e6).toFixed(0)} MB) ` +
        `into another study by the CLI`,
    ];
    await new Promise((r) => setTimeout(r, BASELINE_MS));
    const importStart = performance.now();
    const out = await cliOnAsync(db, ['import', 'items', '--study', String(target), big]);
    const importEnd = performance.now();
    await new Promise((r) => setTimeout(r, AFTER_MS));
    stop = true;
    await Promise.all(workers);

    const before = samples.filter((s) => s.at < importStart).map((s) => s.ms);
    const during = samples.filter((s) => s.at >= importStart && s.at <= importEnd).map((s) => s.ms);
    const after = samples.filter((s) => s.at > importEnd).map((s) => s.ms);
    lines.push(`  ${out.trim()}`);
    lines.push(`  import: ${((importEnd - importStart) / 1000).toFixed(1)} s wall (CLI process start included)`);
    lines.push(`submit latency (every POST, client side):`);
    lines.push(`  before the import (baseline)  ${latencySummary(before)}`);
    lines.push(`  during the import             ${latencySummary(during)}`);
    lines.push(`  after it                      ${latencySummary(after)}`);
    const stored = withReadonlyDb(db, (d) => ({
      items: d.prepare('SELECT count(*) FROM items WHERE study_id = ?').pluck().get(target) as number,
      annotations: d
        .prepare('SELECT count(*) FROM annotations an JOIN assignments a ON a.id = an.assignment_id WHERE a.study_id = ?')
        .pluck()
        .get(working) as number,
    }));
    lines.push(
      `check: ${failures.length} failed requests; ${acked.length} acknowledged, ${stored.annotations} annotations; ` +
        `${stored.items.toLocaleString('en')} of ${FLOWS.toLocaleString('en')} items imported`,
    );
    const p95 = percentile(
      [...during].sort((a, b) => a - b),
      95,
    );
    lines.push(`p95 during the import ${p95.toFixed(1)} ms: ${p95 < BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget`);
    console.log(lines.join('\n'));
    for (const f of failures.slice(0, 5)) console.log(`  failure: ${JSON.stringify(f)}`);
    if (failures.length || stored.annotations !== acked.length || stored.items !== FLOWS) process.exitCode = 1;
    await Promise.all(contexts.map((c) => c.dispose()));
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
