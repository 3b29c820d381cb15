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
 * Whether `pid` is a Concord judge runner (the server's runner-child.ts or the CLI running `judge run`), so that a
 * pid reused by another program since the claim was written is never signalled. Where /proc cannot tell, only a
 * runner heard from within `staleMs` is taken for one.
 */
function isRunner(pid: number, heartbeatAt: number | null, staleMs: number): boolean {
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return (heartbeatAt ?? 0) >= Date.now() - staleMs;
  }
  return /runner-child\.ts|cli[/\\]main\.ts/.test(cmdline);
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
  claim: { ownerPid: number | null; ownerHost: string | null; heartbeatAt: number | null },
  staleMs: number,
): Promise<RunnerEnd> {
  const pid = claim.ownerPid;
  if (pid === null || pid === process.pid) return 'none';
  if (claim.ownerHost !== os.hostname()) return 'elsewhere';
  if (processGone(pid) || !isRunner(pid, claim.heartbeatAt, staleMs)) return 'none';
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
