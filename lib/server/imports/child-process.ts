import 'server-only';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { type BundledProcess, bundledProcess } from '@/lib/bundle/process-bundle.mjs';
import { DomainError, type ErrorCode } from '../errors';

/** What a child script prints as its last line (see `printAnswer`). */
export type ChildAnswer<T> =
  | { ok: true; result: T }
  | { ok: false; code: ErrorCode | 'internal'; message: string; fieldErrors?: Record<string, string>; details?: unknown };

/**
 * The command that starts Concord process `name` as a child of this one: Node with the server's import conditions
 * (modules marked 'server-only' load, as in Next's server) and the process's bundled file
 * (`lib/bundle/process-bundle.mjs`, made from the sources the first time they are needed), then `args`.
 */
export function childCommand(name: BundledProcess, args: string[] = []): { file: string; args: string[] } {
  const bundle = bundledProcess(/*turbopackIgnore: true*/ process.cwd(), name);
  return { file: process.execPath, args: ['--conditions=react-server', bundle, ...args] };
}

/**
 * Runs Concord process `name` (one of `lib/server`'s child scripts, bundled) in a process of its own with `job` as
 * its argument and resolves with the answer it prints as its last line (`ChildAnswer` for scripts that use
 * `printAnswer`). The web server is bundled by Next, so CPU-heavy work cannot simply be handed to a worker thread
 * of the same code; a child process runs the same source, opens the same database (WAL: readers and the one writer
 * never block each other), and leaves the server's event loop free. The child's stdin stays open for as long as
 * this process lives, so a child can tell when the server died. `nice` lowers the child's scheduling priority, so
 * that on a busy machine the server's requests come first.
 */
export function runChild<A>(name: BundledProcess, job: unknown, opts: { signal?: AbortSignal; nice?: number } = {}): Promise<A> {
  const command = childCommand(name, [JSON.stringify(job)]);
  return new Promise<A>((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      cwd: process.cwd(),
      env: process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    if (opts.nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, opts.nice);
      } catch {
        // not permitted here: it runs at the server's priority
      }
    }
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => {}); // the child may end before we close its stdin
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as A);
      } catch {
        reject(new Error(`${name} ended (exit ${code}) without an answer: ${err.slice(-2000)}`));
      }
    });
  });
}

/** The child's result, or its expected failure thrown again here as the same DomainError. */
export function unwrapAnswer<T>(name: string, answer: ChildAnswer<T>): T {
  if (answer.ok) return answer.result;
  if (answer.code === 'internal') throw new Error(`${name} failed: ${answer.message}`);
  throw new DomainError(answer.code, answer.message, answer.fieldErrors, answer.details);
}

/** What `fn` gives as a child's answer: its result, or its failure as the parent can throw it again. */
export function answerOf(fn: () => unknown): ChildAnswer<unknown> {
  try {
    return { ok: true, result: fn() };
  } catch (e) {
    return e instanceof DomainError
      ? { ok: false, code: e.code, message: e.message, fieldErrors: e.fieldErrors, details: e.details }
      : { ok: false, code: 'internal', message: String((e as Error)?.stack ?? e) };
  }
}

/** For child scripts: runs `fn`, prints its answer as one JSON line, and lets the process end. */
export function printAnswer(fn: () => unknown, cleanup: () => void) {
  let answer: ChildAnswer<unknown>;
  try {
    answer = answerOf(fn);
  } finally {
    cleanup();
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
