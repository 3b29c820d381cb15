/**
 * Does the server keep answering while it does heavy work for one user? `/api/health` and annotators' submits,
 * idle, during a judge-run upload of 1,000,000 verdicts, and during bootstraps of the largest size the report
 * route accepts.
 * Run (after `npx next build`): npx tsx --conditions=react-server bench/heavy-requests.ts
 *   (BENCH_PORT, default 3220; RECORDS, default 100000 judge records of 10 verdicts; ANNOTATORS, default 3)
 *
 * The production server (`next start`) on a database of its own seeded with the demo. ANNOTATORS demo annotators
 * review their MathDial flows (0.5–1.5 s per item, GET assignment → POST submission over loopback) and a probe
 * asks `/api/health` every 50 ms, throughout. Phases, one after the other: idle (the floor); the lead uploads a
 * judge run of RECORDS records × 10 criteria (9 general + overall) into a pairwise study of RECORDS / 2 items, in
 * both orders, through `POST /api/studies/:id/judge`; the lead asks for agreement, alignment and leaderboard
 * reports of the PandaLM study with the maximal bootstrap, one after the other, for BOOTSTRAP_MS. Reported per
 * phase: health and submit latency (client side), failed requests; then a check that every acknowledged
 * submission and every verdict is stored.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { getQueue, percentile, runAnnotator, type Failure } from '@/e2e/support/load';
import { cliOn, pool, seededRandom, signInOverHttp, withReadonlyDb } from '@/e2e/support/server';
import { writeJudgeStudyFiles } from './judge-study';
import { conditions, withOwnServer } from './own-server';
import { MAX_BOOTSTRAP_REPLICATES } from '@/lib/server/analytics/data';

const PORT = Number(process.env.BENCH_PORT ?? 3220);
const RECORDS = Number(process.env.RECORDS ?? 100_000);
const ANNOTATORS = Number(process.env.ANNOTATORS ?? 3);
const IDLE_MS = 15_000;
const BOOTSTRAP_MS = 20_000;
const PAUSE_MS = 3_000;
const PASSWORD = 'concord-demo';
const PANDALM = 5;
const MATHDIAL = 2;

type Sample = { at: number; ms: number; ok: boolean };

const summary = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
  return [String(s.length), f(percentile(s, 50)), f(percentile(s, 95)), f(s[s.length - 1] ?? NaN)];
};

async function main() {
  await withOwnServer('heavy', PORT, async ({ dir, db, server }) => {
    cliOn(db, ['seed']);
    const files = writeJudgeStudyFiles(dir, RECORDS);
    const big = (
      JSON.parse(cliOn(db, ['study', 'create', '--kind', 'pairwise', '--name', 'Judged', '--criteria', files.catalog, '--json'])) as {
        id: number;
      }
    ).id;
    cliOn(db, ['import', 'items', '--study', String(big), files.itemsFile]);

    const users = ['ann1', 'ann2', 'ann3', 'ann4'].slice(0, ANNOTATORS);
    const storedAnnotations = () =>
      withReadonlyDb(
        db,
        (d) =>
          d
            .prepare(
              `SELECT count(*) FROM annotations an JOIN assignments a ON a.id = an.assignment_id
                WHERE a.study_id = ? AND an.created_by IN (SELECT id FROM users WHERE username IN (SELECT value FROM json_each(?)))`,
            )
            .pluck()
            .get(MATHDIAL, JSON.stringify(users)) as number,
      );
    const annotationsBefore = storedAnnotations();
    await server.start();
    const contexts = await pool(users, 2, (u) => signInOverHttp(server.baseURL, u, PASSWORD));
    const lead = await signInOverHttp(server.baseURL, 'lead', PASSWORD);
    const random = seededRandom(20261123);
    const health: Sample[] = [];
    const submits: Sample[] = [];
    const failures: Failure[] = [];
    const acked: number[] = [];
    let stop = false;

    const probe = (async () => {
      while (!stop) {
        const t0 = performance.now();
        const ok = await fetch(`${server.baseURL}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        health.push({ at: t0, ms: performance.now() - t0, ok });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const workers = contexts.map(async (ctx, i) => {
      let done = (await getQueue(ctx, MATHDIAL)).body?.submitted ?? 0;
      while (!stop) {
        const r = await runAnnotator(ctx, {
          username: users[i],
          studyId: MATHDIAL,
          submissions: 1,
          random: () => 1,
          retryRate: 0,
          doubleRate: 0,
          alreadySubmitted: done,
          thinkMs: () => 500 + random() * 1000,
        });
        const end = performance.now();
        for (const ms of r.latencies) submits.push({ at: end - ms, ms, ok: true });
        failures.push(...r.failures);
        done += r.acked.size;
        acked.push(...r.acked.keys());
      }
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const phases: { name: string; from: number; to: number; note: string }[] = [];
    let t = performance.now();
    await sleep(IDLE_MS);
    phases.push({ name: 'idle', from: t, to: performance.now(), note: '' });
    await sleep(PAUSE_MS);

    t = performance.now();
    const upload = await lead.post(`/api/studies/${big}/judge?format=concord&filename=judge.jsonl`, {
      data: fs.readFileSync(files.judgeFile),
      headers: { 'content-type': 'application/x-ndjson' },
      timeout: 900_000,
    });
    const uploaded = (await upload.json()) as { ok: boolean; data?: { labels: number }; error?: string; details?: unknown };
    phases.push({
      name: `judge upload, ${(RECORDS * 10).toLocaleString('en')} verdicts`,
      from: t,
      to: performance.now(),
      note: `${upload.status()} ${uploaded.ok ? `${uploaded.data!.labels.toLocaleString('en')} verdicts` : `${uploaded.error} ${JSON.stringify(uploaded.details)}`}`,
    });
    await sleep(PAUSE_MS);

    t = performance.now();
    const reports: string[] = [];
    const kinds = ['agreement?', 'alignment?judge=gpt-3.5-turbo&', 'leaderboard?'];
    for (let k = 0; performance.now() - t < BOOTSTRAP_MS; k++) {
      const r0 = performance.now();
      const res = await lead.get(`/api/studies/${PANDALM}/reports/${kinds[k % 3]}bootstrap=${MAX_BOOTSTRAP_REPLICATES}`, {
        timeout: 120_000,
      });
      reports.push(`${kinds[k % 3].split('?')[0]} ${res.status()} ${((performance.now() - r0) / 1000).toFixed(1)} s`);
    }
    phases.push({
      name: `bootstrap, ${MAX_BOOTSTRAP_REPLICATES.toLocaleString('en')} replicates`,
      from: t,
      to: performance.now(),
      note: reports.join(', '),
    });
    stop = true;
    await Promise.all([probe, ...workers]);

    const lines = [
      `Concord: health and submits during heavy requests — ${conditions()} (at the end), production build on loopback`,
      `${ANNOTATORS} annotators reviewing (0.5–1.5 s per item), /api/health every 50 ms; judge file ${(files.bytes / 1e6).toFixed(0)} MB`,
      '',
      '| phase | wall | health n | p50 ms | p95 ms | max ms | submit n | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const p of phases) {
      const during = (xs: Sample[]) => xs.filter((s) => s.at >= p.from && s.at <= p.to).map((s) => s.ms);
      lines.push(
        `| ${p.name} | ${((p.to - p.from) / 1000).toFixed(1)} s | ${summary(during(health)).join(' | ')} | ${summary(during(submits)).join(' | ')} |`,
      );
    }
    lines.push('');
    for (const p of phases) if (p.note) lines.push(`${p.name}: ${p.note}`);
    const stored = withReadonlyDb(db, (d) => ({
      verdicts: d
        .prepare("SELECT count(*) FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id WHERE r.study_id = ? AND r.state = 'done'")
        .pluck()
        .get(big) as number,
    }));
    const failedHealth = health.filter((s) => !s.ok).length;
    lines.push(
      `check: ${failures.length} failed submits, ${failedHealth} failed health checks; ${acked.length} submissions acknowledged, ` +
        `${storedAnnotations() - annotationsBefore} stored; ${stored.verdicts.toLocaleString('en')} of ` +
        `${(RECORDS * 10).toLocaleString('en')} verdicts stored`,
    );
    console.log(lines.join('\n'));
    for (const f of failures.slice(0, 5)) console.log(`  failure: ${JSON.stringify(f)}`);
    if (failures.length || failedHealth || stored.verdicts !== RECORDS * 10 || storedAnnotations() - annotationsBefore !== acked.length)
      process.exitCode = 1;
    await Promise.all([...contexts, lead].map((c) => c.dispose()));
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
