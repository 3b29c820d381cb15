/**
 * The ceiling of one SQLite file and one server process here: sustained submissions per second with the submit's
 * p95 under 100 ms, as the number of simulated annotators grows (docs/decisions/0011-scale.md).
 * Run (after `npx next build`):
 *   npx tsx --conditions=react-server bench/ceiling.ts [--steps 25,50,100,200,400] [--seconds 30] [--port 3521]
 *     [--processes N] [--client http|fetch]
 *
 * (1) The file alone: one process calls the submit use-case (`submitFlowReview`, the same transaction the route
 *     runs: read the assignment, write the annotation, its packed labels, the queue counts and the audit entry,
 *     `synchronous = FULL`) back to back for `--seconds`, on a database of its own: what the file takes when
 *     nothing else is in the way.
 * (2) The production server (`next start`) on another database: for each step, that many annotators each work
 *     item after item — GET the item, 0.5–1.5 s of "reading" (far faster than people: it stands for many
 *     people), POST the submission — for `--seconds`. Offered load ≈ annotators submissions/s. Reported per step:
 *     submissions/s achieved, the submit's p50/p95/p99, the next item's p95, failures. The ceiling is the highest
 *     rate whose submit p95 stays under 100 ms.
 *     The annotators are one process beside the server, on the same cores: `--client http` (the default) sends
 *     their requests with node:http, `--client fetch` with `fetch`, as every run before 2026-11-29 did (about
 *     twice the generator's CPU per request, taken from the cores the server is measured on).
 * Afterwards every acknowledged submission is checked against the database (once each).
 * With `--cpu-prof DIR` the server runs under `node --cpu-prof` and is stopped with SIGTERM at the end, leaving its
 * `.cpuprofile` in DIR for `bench/cpu-profile.ts` (where the server's milliseconds per request go).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { newRequestId, percentile } from '@/e2e/support/load';
import { cliOn, seededRandom, writeFlowsFile } from '@/e2e/support/server';
import { HttpPerson, addAccounts, conditions, signInPeople, sleep, withOwnServer } from './own-server';

const { values: args } = parseArgs({
  options: {
    steps: { type: 'string', default: '25,50,100,200,400' },
    seconds: { type: 'string', default: '30' },
    port: { type: 'string', default: '3521' },
    'cpu-prof': { type: 'string' },
    processes: { type: 'string' },
    client: { type: 'string', default: 'http' },
  },
});
const STEPS = args.steps!.split(',').map(Number);
const SECONDS = Number(args.seconds);
const PORT = Number(args.port);
const BUDGET_MS = 100;
const PROFILE_DIR = args['cpu-prof'] ? path.resolve(args['cpu-prof']) : undefined;
const PASSWORD = 'ceiling-password';
/** Server processes (lib/cli/serve.mjs, CONCORD_PROCESSES); unset: `next start` itself. */
const PROCESSES = args.processes;
/** How the simulated annotators send their requests: `http` (node:http, the lighter) or `fetch`, as before 2026-11-29. */
if (args.client !== 'http' && args.client !== 'fetch') throw new Error(`--client is http or fetch, not ${args.client}`);
HttpPerson.nodeHttp = args.client === 'http';

type Queue = { currentId: number | null };

const fmt = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return percentile(s, p);
};

/** (1): the submit use-case back to back in one process, on a database of its own. */
function fileAlone(dir: string, seconds: number): string {
  // More than a quiet machine submits in the time (about 2,000/s here): running out would end the loop early.
  const flows = writeFlowsFile(dir, 'alone', Math.max(40_000, seconds * 3_000));
  const out = execFileSync(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', 'bench/ceiling-alone.ts', path.join(dir, 'alone.db'), flows, String(seconds)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const {
    n,
    seconds: ran,
    p50,
    p95,
    p99,
  } = JSON.parse(out.trim().split('\n').at(-1)!) as Record<'n' | 'seconds' | 'p50' | 'p95' | 'p99', number>;
  return (
    `(1) the file alone: submit use-case back to back, one process, ${ran.toFixed(1)} s: ${n.toLocaleString('en')} submissions = ` +
    `${(n / ran).toFixed(0)} submissions/s (getQueue included in the loop); submit transaction p50 ${p50.toFixed(2)} ms, ` +
    `p95 ${p95.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`
  );
}

async function main() {
  const max = Math.max(...STEPS);
  await withOwnServer(
    'ceiling',
    PORT,
    async ({ dir, db, server }) => {
      const lines = [
        `Concord ceiling — ${conditions()} at the start; server processes: ${PROCESSES ?? '1 (next start)'}; client: ${args.client}`,
      ];
      console.log(lines[0]);
      lines.push(fileAlone(dir, SECONDS));
      console.log(lines.at(-1));

      const usernames = Array.from({ length: max }, (_, i) => `c-${String(i + 1).padStart(3, '0')}`);
      await addAccounts(db, usernames, PASSWORD);
      const study = (
        JSON.parse(cliOn(db, ['study', 'create', '--kind', 'flow_review', '--name', 'Ceiling', '--reviewers', '1', '--json'])) as {
          id: number;
        }
      ).id;
      // Enough items for every step at the fastest pace (one per 0.5 s), for every annotator.
      const perAnnotator = Math.ceil((STEPS.length * SECONDS) / 0.5) + 10;
      cliOn(db, ['import', 'items', '--study', String(study), writeFlowsFile(dir, 'ceiling', max * perAnnotator)]);
      cliOn(db, ['study', 'members', String(study), ...usernames]);
      cliOn(db, ['study', 'open', String(study)]);
      if (PROFILE_DIR) server.nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`];
      await server.start(120_000);
      const people = await signInPeople(server.baseURL, usernames, PASSWORD);
      const current = new Map<string, number | null>();
      for (const p of people) current.set(p.username, ((await p.get(`/api/studies/${study}/queue`)).body as Queue).currentId);

      const acked: { username: string; id: number; requestId: string }[] = [];
      let requests = people.length; // the queue reads above
      lines.push(
        '',
        `(2) the production server, each annotator GET item → 0.5–1.5 s → POST submission, ${SECONDS} s per step`,
        '',
        '| annotators | offered /s | achieved submissions/s | submit p50 ms | p95 ms | p99 ms | next item p95 ms | failed | load 1 min |',
        '|---|---|---|---|---|---|---|---|---|',
      );
      console.log(lines.slice(-5).join('\n'));
      let ceiling = 0;
      for (const n of STEPS) {
        const submit: number[] = [];
        const next: number[] = [];
        let failed = 0;
        let done = 0;
        const end = performance.now() + SECONDS * 1000;
        const run = async (p: HttpPerson, random: () => number) => {
          // start spread over the first second, so that the step does not open with one burst
          await sleep(random() * 1000);
          while (performance.now() < end) {
            const id = current.get(p.username);
            if (!id) return;
            const item = await p.get(`/api/assignments/${id}`);
            requests++;
            next.push(item.ms);
            if (item.status !== 200) failed++;
            await sleep(500 + 1000 * random());
            const requestId = newRequestId(p.username);
            const r = await p.post(`/api/assignments/${id}/submission`, { requestId, activeMs: 1000, decision: { decision: 'verify' } });
            requests++;
            submit.push(r.ms);
            const body = r.body as { ok?: boolean; data?: { queue: Queue } } | null;
            if (r.status !== 200 || !body?.ok) {
              failed++;
              current.set(p.username, ((await p.get(`/api/studies/${study}/queue`)).body as Queue).currentId);
              requests++;
              continue;
            }
            acked.push({ username: p.username, id, requestId });
            done++;
            current.set(p.username, body.data!.queue.currentId);
          }
        };
        const t = performance.now();
        await Promise.all(people.slice(0, n).map((p, i) => run(p, seededRandom(n * 1000 + i))));
        const rate = done / ((performance.now() - t) / 1000);
        const p95 = fmt(submit, 95);
        if (p95 < BUDGET_MS && failed === 0) ceiling = Math.max(ceiling, rate);
        lines.push(
          `| ${n} | ${n} | ${rate.toFixed(1)} | ${fmt(submit, 50).toFixed(1)} | ${p95.toFixed(1)} | ${fmt(submit, 99).toFixed(1)} | ` +
            `${fmt(next, 95).toFixed(1)} | ${failed} | ${os.loadavg()[0].toFixed(2)} |`,
        );
        console.log(lines.at(-1));
        await sleep(3000);
      }
      // A profiled server must exit by itself to write its profile.
      await (PROFILE_DIR ? server.stop() : server.kill9());
      const check = new Database(db, { readonly: true });
      const has = check.prepare(
        'SELECT count(*) FROM annotations an JOIN users u ON u.id = an.created_by WHERE u.username = ? AND an.assignment_id = ? AND an.request_id = ?',
      );
      const missing = acked.filter((a) => has.pluck().get(a.username, a.id, a.requestId) !== 1).length;
      const total = check.prepare('SELECT count(*) FROM annotations').pluck().get() as number;
      check.close();
      const shown = lines.length;
      lines.push(
        '',
        `ceiling: ${ceiling.toFixed(0)} submissions/s with the submit's p95 under ${BUDGET_MS} ms; check: ${acked.length.toLocaleString('en')} acknowledged, ` +
          `${missing} missing, ${total.toLocaleString('en')} annotations stored; at the end ${conditions()}`,
      );
      if (PROFILE_DIR)
        lines.push(
          `profile: ${PROFILE_DIR}, ${requests} requests after sign-in (npx tsx bench/server-profile.ts FILE --requests ${requests})`,
        );
      console.log(lines.slice(shown + 1).join('\n'));
      fs.writeFileSync(path.join(os.tmpdir(), `concord-ceiling-${PORT}.txt`), `${lines.join('\n')}\n`);
      if (missing || total !== acked.length) process.exitCode = 1;
    },
    PROCESSES ? { CONCORD_PROCESSES: PROCESSES } : {},
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
