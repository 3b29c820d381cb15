import 'server-only';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import { databasePath } from '@/lib/env';
import { childCommand } from '../imports/child-process';

/**
 * The web server's report process: one long-lived child (`report-child`, started from its bundle by `childCommand`)
 * that computes reports one after another, so that a dashboard's intervals wait only for their bootstrap, not for a
 * new process to start (measured 3–6 s of the 5–7 s the demo's dashboards took to show intervals when each report
 * started a process under tsx; the bootstrap itself is 0.1–1 s of CPU on the demo's studies). Jobs go in as JSON lines on its stdin, answers come back as JSON
 * lines `{ id, answer }` on its stdout.
 *
 * - One job at a time (the caller queues them): the child is single-threaded and two cores are shared with the server.
 * - A caller that gives up (the browser left the page) takes the job out of the queue; if the job is already being
 *   computed, the child is killed, as a one-shot child was, and the next job starts a new one.
 * - A child that dies fails its job with what it printed on stderr; the next job starts a new one.
 * - The child reads the database afresh for every job (WAL: a new read transaction each time) and ends when the
 *   server does (its stdin closes).
 */

type Pending = { resolve: (a: unknown) => void; reject: (e: Error) => void };

const NAME = 'report-child';

/** `database`: the file the child was started on (it reads CONCORD_DB from the environment it was given). */
type Child = { process: ChildProcessWithoutNullStreams; pending: Map<number, Pending>; stderr: string; database: string };

class ReportWorker {
  private child: Child | null = null;
  private nextId = 1;

  constructor(private readonly nice: number) {}

  /** The running child's pid, if any (for tests). */
  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  private start(): Child {
    const command = childCommand(NAME);
    const child = spawn(command.file, command.args, {
      cwd: process.cwd(),
      env: process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (this.nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, this.nice);
      } catch {
        // not permitted here: it runs at the server's priority
      }
    }
    // Each child answers only its own jobs: a child that dies fails those, never a newer child's.
    const me: Child = { process: child, pending: new Map(), stderr: '', database: databasePath() };
    child.stderr.on('data', (d: Buffer) => (me.stderr = (me.stderr + d.toString()).slice(-4000)));
    child.stdin.on('error', () => {}); // a child that died is noticed on 'exit'
    // A child that could not be started: its jobs fail with the reason (an unhandled 'error' would end the server).
    child.on('error', (e) => {
      if (this.child === me) this.child = null;
      for (const p of me.pending.values()) p.reject(e);
      me.pending.clear();
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { id: number; answer: unknown };
      try {
        message = JSON.parse(line) as { id: number; answer: unknown };
      } catch {
        return; // a stray line (a warning printed by a library): answers are whole JSON lines
      }
      const p = me.pending.get(message.id);
      me.pending.delete(message.id);
      p?.resolve(message.answer);
    });
    child.on('exit', (code, signal) => {
      if (this.child === me) this.child = null;
      const why = new Error(`${NAME} ended (${signal ?? `exit ${code}`}) without an answer: ${me.stderr.slice(-2000)}`);
      for (const p of me.pending.values()) p.reject(why);
      me.pending.clear();
    });
    // The server must not wait for this child to end before it can exit itself.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref?: () => void }[]) s.unref?.();
    this.child = me;
    return me;
  }

  /**
   * The running child if it serves the database this process uses now, else a new one. A server never changes its
   * database; a process that does (one test file after another in the same worker) must not be answered from the
   * previous file's database by a child started for it.
   */
  private current(): Child {
    if (this.child && this.child.database !== databasePath()) this.stop();
    return this.child ?? this.start();
  }

  /** Starts the child now if none is running, so that the next job does not wait for it. */
  warm() {
    this.current();
  }

  /** Computes one job in the child; a caller's abort kills the child (it is busy with this job). */
  run<A>(job: unknown, signal?: AbortSignal): Promise<A> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const child = this.current();
    const id = this.nextId++;
    return new Promise<A>((resolve, reject) => {
      const onAbort = () => {
        child.pending.delete(id);
        reject(signal!.reason as Error);
        // Forgotten at once, so that the next job starts a new child rather than writing to this dying one.
        if (this.child === child) this.child = null;
        child.process.kill('SIGKILL');
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      child.pending.set(id, {
        resolve: (a) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(a as A);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      child.process.stdin.write(`${JSON.stringify({ id, job })}\n`);
    });
  }

  /** Ends the child (tests; the server's child ends with the server). */
  stop() {
    this.child?.process.kill('SIGKILL');
    this.child = null;
  }
}

const globalForReports = globalThis as unknown as { concordReportWorker?: ReportWorker };

/** The process's report worker (one per server process). */
export function reportWorker(nice: number): ReportWorker {
  globalForReports.concordReportWorker ??= new ReportWorker(nice);
  return globalForReports.concordReportWorker;
}
