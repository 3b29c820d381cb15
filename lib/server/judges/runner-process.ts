import 'server-only';
import fs from 'node:fs';
import os from 'node:os';

/*
 * Ending the process that runs a cancelled judge run (issue 21, point 3). The run's state alone stopped a runner
 * only when its heartbeat read it; a runner whose event loop was stuck never did, and being detached it outlived
 * the server. A cancel therefore ends the process named in the run's claim: SIGTERM (the runner stops at once and
 * writes nothing more, runner.ts), then SIGKILL if it is still there after TERM_GRACE_MS, and waits until it is gone.
 */

/** How long a runner has to stop after SIGTERM before it is killed. */
export const TERM_GRACE_MS = 3_000;
/** How long the end of a killed process is waited for. */
const KILL_WAIT_MS = 2_000;
const POLL_MS = 25;

/** Whether process `pid` of this machine no longer runs: it does not exist, or only its exit status is left (a zombie). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // "pid (comm) S …": the state follows the last parenthesis (comm may hold any character).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false; // no /proc (not Linux): the signal said it exists
  }
}

/**
 * Whether `pid` is the Concord judge runner of this run — the server's runner-child.ts started for `runId`, or the
 * CLI's `judge run --name NAME` — so that a pid reused since the claim was written (by another program, or by the
 * runner of another run) is never signalled. Where /proc cannot tell, only a runner heard from within `staleMs` is
 * taken for it.
 */
function isRunnerOf(pid: number, run: { runId: number; name: string }, heartbeatAt: number | null, staleMs: number): boolean {
  let args: string[];
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return (heartbeatAt ?? 0) >= Date.now() - staleMs;
  }
  // The server's runner: bundled (lib/bundle/process-bundle.mjs: …/concord-bundle/HASH/runner-child.mjs), or the
  // source under tsx as before the bundle.
  const child = args.findIndex((a) => /concord-bundle[/\\][0-9a-f]{16}[/\\]runner-child\.mjs$/.test(a) || /runner-child\.ts$/.test(a));
  if (child >= 0) {
    try {
      return (JSON.parse(args[child + 1] ?? '') as { runId?: unknown }).runId === run.runId;
    } catch {
      return false;
    }
  }
  // The CLI: bundled (…/concord-bundle/HASH/cli.mjs; an older checkout's …/concord-cli/main-HASH.mjs) or the source under tsx.
  const cli = args.findIndex(
    (a) =>
      /concord-bundle[/\\][0-9a-f]{16}[/\\]cli\.mjs$/.test(a) ||
      /concord-cli[/\\]main-[0-9a-f]+\.mjs$/.test(a) ||
      /cli[/\\]main\.ts$/.test(a),
  );
  if (cli < 0 || args[cli + 1] !== 'judge' || args[cli + 2] !== 'run') return false;
  return args.some((a, i) => a === `--name=${run.name}` || (a === '--name' && args[i + 1] === run.name));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function goneWithin(pid: number, ms: number) {
  const until = Date.now() + ms;
  while (!processGone(pid)) {
    if (Date.now() >= until) return false;
    await sleep(POLL_MS);
  }
  return true;
}

export type RunnerEnd = 'none' | 'gone' | 'elsewhere' | 'still-running';

/**
 * Ends the runner process that claims a run, if it is on this machine, and resolves once it is gone. 'elsewhere':
 * another machine's runner, which stops at its next heartbeat; 'none': no runner process to end (or this process
 * itself, whose `runJudge` stops at its next heartbeat).
 */
export async function endRunnerProcess(
  claim: { runId: number; name: string; ownerPid: number | null; ownerHost: string | null; heartbeatAt: number | null },
  staleMs: number,
): Promise<RunnerEnd> {
  const pid = claim.ownerPid;
  if (pid === null || pid === process.pid) return 'none';
  if (claim.ownerHost !== os.hostname()) return 'elsewhere';
  if (processGone(pid) || !isRunnerOf(pid, claim, claim.heartbeatAt, staleMs)) return 'none';
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // gone between the check and the signal
    }
  };
  signal('SIGTERM');
  if (await goneWithin(pid, TERM_GRACE_MS)) return 'gone';
  signal('SIGKILL');
  return (await goneWithin(pid, KILL_WAIT_MS)) ? 'gone' : 'still-running';
}
