import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/*
 * The concord CLI for tests, synchronous as `spawnSync` would be, but one process per database: each command used to
 * start `node --import tsx` (1–3 s on the shared two cores, most of a spec's set-up). Commands go to a
 * `concord batch` process (lib/cli/batch-command.ts), which runs each exactly as `concord ARGS…` would, with its own
 * connection, exit code and output; the thread in cli-batch-thread.mjs talks to it while this thread waits.
 * What is about the process itself (a signal, a pipe closed early, a killed wrapper) still needs a process of its own.
 */

export type CliResult = { code: number; stdout: string; stderr: string };
type Answer = CliResult | { error: string };

/** Longer than any command a test runs; a command that takes longer means the batch process is stuck. */
const COMMAND_TIMEOUT_MS = 180_000;

type Batch = { worker: Worker; port: MessagePort; signal: Int32Array };
const batches = new Map<string, Batch>();

function startBatch(env: NodeJS.ProcessEnv): Batch {
  const shared = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./cli-batch-thread.mjs', import.meta.url), {
    workerData: { env, port: port2, signal: shared },
    transferList: [port2],
  });
  // Neither the thread nor its process keep a finished test process alive: the batch ends when its stdin closes.
  worker.unref();
  return { worker, port: port1, signal: new Int32Array(shared) };
}

/**
 * Runs one command through the batch process for `env` (one per CONCORD_DB; the environment is the first call's)
 * and returns its exit code and output. Throws only when the batch process itself fails.
 */
export function runInBatch(env: NodeJS.ProcessEnv, args: string[], input?: string): CliResult {
  const db = env.CONCORD_DB ?? '';
  let batch = batches.get(db);
  if (!batch) batches.set(db, (batch = startBatch(env)));
  Atomics.store(batch.signal, 0, 0);
  batch.worker.postMessage({ args, input });
  if (Atomics.wait(batch.signal, 0, 0, COMMAND_TIMEOUT_MS) === 'timed-out') {
    batches.delete(db);
    void batch.worker.terminate();
    throw new Error(`concord ${args.join(' ')}: no answer within ${COMMAND_TIMEOUT_MS / 1000} s`);
  }
  const answer = receiveMessageOnPort(batch.port)?.message as Answer | undefined;
  if (!answer) throw new Error(`concord ${args.join(' ')}: the batch thread gave no answer`);
  if ('error' in answer) {
    batches.delete(db);
    throw new Error(`concord ${args.join(' ')}: ${answer.error}`);
  }
  return answer;
}

/** A command that exited non-zero, as `execFileSync` reports it: stderr in the message, and the exit status. */
export class CliError extends Error {
  constructor(
    args: string[],
    readonly status: number,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`Command failed: concord ${args.join(' ')} (exit code ${status})\n${stderr}`);
  }
}

/** As `execFileSync` would: stdout, or a CliError on a non-zero exit. */
export function cliInBatch(env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const r = runInBatch(env, args, input);
  if (r.code !== 0) throw new CliError(args, r.code, r.stdout, r.stderr);
  return r.stdout;
}
