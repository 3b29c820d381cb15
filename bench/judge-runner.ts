/*
 * Judge runner throughput: 100,000 requests against the local stand-in endpoint answering after 50 ms, concurrency
 * 32 (the bound is 32 / 50 ms = 640 requests/s; the goal is 80 % of it), the runner's peak memory, and the p95 of
 * annotators' submissions in the same study while the run goes, beside the same submissions idle.
 *
 *   npx tsx --conditions=react-server bench/judge-runner.ts [REQUESTS=100000] [PORT=3503]
 *
 * With BENCH_CPU_PROF=DIR the runner writes a CPU profile to DIR (`node --cpu-prof`), for `bench/cpu-profile.ts`.
 *
 * The runner is the real CLI (`judge run`, a process of its own); the stand-in runs in another process (port 3503
 * by default); the submissions are made here, through the same use-case the app calls, on the same database file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Actor } from '@/lib/server/actor';

const REQUESTS = Number(process.argv[2] ?? 100_000);
const PORT = Number(process.argv[3] ?? 3503);
const CRITERIA = 4; // + overall = 5 per item, both orders = 10 requests per item
const ITEMS = Math.ceil(REQUESTS / ((CRITERIA + 1) * 2));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-bench-runner-'));
process.env.CONCORD_DB = path.join(dir, 'bench.db');

const p95 = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let standIn: ReturnType<typeof spawn> | null = null;

async function main() {
  const { getDb, closeDb } = await import('@/db/client');
  const { cliActor } = await import('@/lib/server/system/system');
  const { createUser } = await import('@/lib/server/accounts/users');
  const { createStudy, setStudyCriteria, setStudyMembers, openStudy } = await import('@/lib/server/studies/studies');
  const { importItems } = await import('@/lib/server/imports/imports');
  const { getQueue } = await import('@/lib/server/review/flow-review');
  const { getJudgeAssignment, submitJudgment } = await import('@/lib/server/review/judging');
  const { PAIRWISE_CRITERION_TEMPLATE } = await import('@/lib/validation/judge-templates');

  getDb();
  const admin = cliActor();
  const annotators: Actor[] = [];
  for (const u of ['ann1', 'ann2', 'ann3', 'ann4']) {
    const d = await createUser(admin, { username: u, displayName: u, password: 'password-123', role: 'annotator' });
    annotators.push({ id: d.id, username: d.username, displayName: d.displayName, role: d.role });
  }
  const studyId = createStudy(admin, { kind: 'pairwise', name: 'Runner bench', reviewersPerItem: 1 }).id;
  setStudyCriteria(
    admin,
    studyId,
    Array.from({ length: CRITERIA }, (_, k) => ({
      id: `c${k}`,
      name: `Criterion ${k}`,
      level: 'general',
      description: `Which reply is better on ${k}?`,
    })),
  );
  const itemsFile = path.join(dir, 'items.jsonl');
  const out = fs.createWriteStream(itemsFile);
  for (let i = 0; i < ITEMS; i++)
    out.write(
      `${JSON.stringify({ id: `it-${i}`, problem: `What is ${i} + ${i}?`, history: [{ role: 'student', text: `Is it ${i}?` }], a: { source: 'x', text: `Try again: ${i} and ${i} more.` }, b: { source: 'y', text: `It is ${2 * i}.` } })}\n`,
    );
  await new Promise((r) => out.end(r));
  importItems(admin, studyId, itemsFile, 'concord');
  setStudyMembers(admin, studyId, { usernames: annotators.map((a) => a.username) });
  openStudy(admin, studyId);
  const promptFile = path.join(dir, 'prompt.json');
  fs.writeFileSync(promptFile, JSON.stringify(PAIRWISE_CRITERION_TEMPLATE));

  let n = 0;
  /** One annotator's submission (in turn), timed; null when their queues are empty. */
  function submitOne(): number | null {
    const who = annotators[n % annotators.length];
    const id = getQueue(who, studyId).currentId;
    if (!id) return null;
    const a = getJudgeAssignment(who, id);
    const choices = Object.fromEntries(a.criteria.map((c) => [c.id, 'r1' as const]));
    const t0 = performance.now();
    submitJudgment(who, { assignmentId: id, requestId: `bench-submit-${String(++n).padStart(8, '0')}`, activeMs: 1000, choices });
    return performance.now() - t0;
  }

  standIn = spawn(process.execPath, ['--import', 'tsx', 'test/judge-standin.ts', String(PORT), '50'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => standIn!.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));

  // idle: submissions with nothing else going on
  const idle: number[] = [];
  for (let i = 0; i < 200; i++) {
    const ms = submitOne();
    if (ms !== null) idle.push(ms);
    await sleep(20);
  }

  const started = performance.now();
  // BENCH_CPU_PROF=DIR runs the CLI's TypeScript directly under `node --cpu-prof` (a .cpuprofile of the runner in DIR)
  const prof = process.env.BENCH_CPU_PROF;
  const cli = prof
    ? [`--cpu-prof`, `--cpu-prof-dir=${prof}`, '--conditions=react-server', '--import', 'tsx', 'lib/cli/main.ts']
    : ['lib/cli/bin.mjs'];
  const runner = spawn(
    process.execPath,
    [
      ...cli,
      'judge',
      'run',
      '--study',
      String(studyId),
      '--name',
      'bench',
      '--endpoint',
      url,
      '--model',
      'stand-in',
      '--prompt',
      promptFile,
      '--concurrency',
      '32',
      '--json',
    ],
    { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  runner.stdout.on('data', (d: Buffer) => (stdout += d));
  runner.stderr.on('data', (d: Buffer) => (stderr += d));
  let finished = false;
  const exit = new Promise<number | null>((resolve) => runner.on('close', (code) => ((finished = true), resolve(code))));

  // during: the same submissions while the run goes; and the runner's peak memory (VmHWM of its process)
  const during: number[] = [];
  let peakKb = 0;
  let cpuTicks = 0;
  const db = getDb().$client;
  while (!finished) {
    const owner = db
      .prepare("SELECT owner_pid FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = 'bench'")
      .pluck()
      .get() as number | null | undefined;
    if (owner) {
      try {
        const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${owner}/status`, 'utf8'));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
        // utime + stime of the runner, in clock ticks (100 per second on Linux)
        const stat = fs.readFileSync(`/proc/${owner}/stat`, 'utf8').split(') ')[1].split(' ');
        cpuTicks = Math.max(cpuTicks, Number(stat[11]) + Number(stat[12]));
      } catch {
        // ended between the read and now
      }
    }
    const ms = owner ? submitOne() : null;
    if (ms !== null) during.push(ms);
    await sleep(50);
  }
  const code = await exit;
  const wall = (performance.now() - started) / 1000;
  standIn.kill();
  standIn = null;
  if (code !== 0) throw new Error(`judge run exited ${code}: ${stderr.slice(-2000)}`);
  const status = JSON.parse(stdout);
  const span = db
    .prepare(
      "SELECT (max(a.created_at) - min(a.created_at)) / 1000.0 FROM judge_answers a JOIN judge_runs r ON r.id = a.run_id WHERE r.name = 'bench'",
    )
    .pluck()
    .get() as number;
  const rate = status.answered / span;
  const result = {
    requests: status.requests,
    answered: status.answered,
    sent: status.sent,
    wallSeconds: Number(wall.toFixed(1)),
    answeringSeconds: Number(span.toFixed(1)),
    requestsPerSecond: Math.round(rate),
    shareOfBound: `${((rate / 640) * 100).toFixed(1)} %`,
    requestsPerSecondWall: Math.round(status.answered / wall),
    runnerPeakRssMB: Math.round(peakKb / 1024),
    runnerCpuSeconds: cpuTicks / 100,
    runnerCpuMsPerRequest: Number(((cpuTicks * 10) / status.answered).toFixed(2)),
    submitP95IdleMs: Number(p95(idle).toFixed(2)),
    submitP95DuringMs: Number(p95(during).toFixed(2)),
    submitsDuring: during.length,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  standIn?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
