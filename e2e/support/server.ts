// Helpers for specs that run their own Concord processes (server and CLI) on their own database, so they can
// kill them without touching the shared end-to-end server.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { request, type APIRequestContext } from '@playwright/test';
import { mulberry32 } from '../../lib/assign/random';
import { cliInBatch } from '../../test/cli-batch';

export const AUTH_SECRET = 'e2e-crash-secret-not-for-production-use';

function envFor(db: string): NodeJS.ProcessEnv {
  return { ...process.env, CONCORD_DB: db, AUTH_SECRET, NODE_ENV: 'production' };
}

/**
 * Runs the CLI to completion on `db`; returns stdout (throws on a non-zero exit). The commands go to one
 * `concord batch` process per database (test/cli-batch.ts, decision 0043), each run as it would run alone, so a
 * spec's set-up costs one start-up of the CLI instead of one per command.
 */
export function cliOn(db: string, args: string[], input?: string): string {
  return cliInBatch(envFor(db), args, input);
}

/**
 * The CLI as a process of its own on `db`, for what is about that process: a command whose start is part of what is
 * tested (an abandoned import is undone when the CLI starts) or whose check is per process (restore's "in use" is
 * SQLite's lock, which a process's own connections never refuse).
 */
export function cliProcessOn(db: string, args: string[], input?: string): string {
  return execFileSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env: envFor(db), input, encoding: 'utf8' });
}

/** Runs the CLI on `db` as a process of its own without blocking; `code` is null when the process was killed. */
export function cliOnAsync(db: string, args: string[], input?: string): Promise<string> {
  const child = spawn(process.execPath, ['lib/cli/bin.mjs', ...args], { env: envFor(db), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdin.end(input ?? '');
  return new Promise((resolve, reject) =>
    // 'close', not 'exit': the process can end before all of its output has been read from the pipe.
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`concord ${args.join(' ')} exited ${code}: ${err}`)))),
  );
}

/** Runs `fn` over `inputs` with at most `limit` at a time (the machine has two cores). */
export async function pool<T, R>(inputs: readonly T[], limit: number, fn: (input: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      results[i] = await fn(inputs[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}

/** A process started in its own process group, so SIGKILL reaches it and every child it started (bin.mjs runs the CLI in a child). */
export class Killable {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output = '';

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    // A detached group outlives the test process unless killed: make sure it never does.
    const killOnExit = () => this.signalGroup();
    process.once('exit', killOnExit);
    void this.exited.then(() => process.off('exit', killOnExit));
  }

  private signalGroup() {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9 on the whole group; resolves once the leader has exited. */
  async kill9() {
    this.signalGroup();
    await this.exited;
  }
}

/** The CLI on `db` as a killable process (e.g. a large import). */
export function killableCli(db: string, args: string[]): Killable {
  return new Killable(['lib/cli/bin.mjs', ...args], envFor(db));
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The production build (`next start`) on `db`, in its own process group. */
export class OwnServer {
  proc: Killable | null = null;
  starts = 0;
  /** Flags for node itself before `next start` (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs: string[] = [];

  constructor(
    readonly db: string,
    readonly port: number,
    /** more environment for the server (e.g. CONCORD_BACKUP_EVERY) */
    readonly env: Record<string, string> = {},
  ) {}

  get baseURL() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server and waits until /api/health answers 200. */
  async start(timeoutMs = 60_000) {
    // The previous (killed) server's processes may take a moment to let go of the port.
    for (let i = 0; await portInUse(this.port); i++) {
      if (i === 50) throw new Error(`port ${this.port} is already in use; is an old crash-test server still running?`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // With CONCORD_PROCESSES the server runs as `npm start` does, through the launcher that forks the workers.
    const next = this.env.CONCORD_PROCESSES
      ? path.join('lib', 'cli', 'serve.mjs')
      : path.join('node_modules', 'next', 'dist', 'bin', 'next');
    this.proc = new Killable(
      [
        ...this.nodeArgs,
        next,
        ...(this.env.CONCORD_PROCESSES ? [] : ['start']),
        '-p',
        String(this.port),
        '-H',
        '127.0.0.1',
        '--keepAliveTimeout',
        '65000',
      ],
      {
        ...envFor(this.db),
        ...this.env,
      },
    );
    this.starts++;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.proc.running) throw new Error(`the server exited during start-up:\n${this.proc.output}`);
      try {
        const res = await fetch(`${this.baseURL}/api/health`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the server did not become healthy within ${timeoutMs} ms:\n${this.proc.output}`);
  }

  async kill9() {
    await this.proc?.kill9();
    this.proc = null;
  }

  /**
   * SIGTERM to the server alone, as a process manager stops it, waiting up to `timeoutMs` for it to exit (then
   * kill -9): a server under `node --cpu-prof` writes its profile only when it exits by itself.
   */
  async stop(timeoutMs = 15_000) {
    const proc = this.proc;
    if (!proc) return;
    proc.child.kill('SIGTERM');
    const gone = await Promise.race([proc.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs))]);
    if (!gone) await proc.kill9();
    this.proc = null;
  }
}

/**
 * Signs in over HTTP the way Auth.js v5 expects from a form: the CSRF token (and its cookie), then the
 * credentials callback. The returned context carries the session cookie.
 */
export async function signInOverHttp(baseURL: string, username: string, password: string): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL });
  const csrf = await ctx.get('/api/auth/csrf');
  if (csrf.status() !== 200) throw new Error(`GET /api/auth/csrf: ${csrf.status()}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, username, password, callbackUrl: `${baseURL}/` },
    maxRedirects: 0,
  });
  const state = await ctx.storageState();
  if (!state.cookies.some((c) => c.name === 'authjs.session-token')) {
    throw new Error(`sign-in of ${username} failed: ${res.status()} ${res.headers().location ?? ''}`);
  }
  return ctx;
}

/** Opens the database read-only, runs `fn`, closes it. */
export function withReadonlyDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

export function integrityCheck(db: Database.Database): string {
  return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
}

/** A small seeded generator (mulberry32) so that kill timings and load mixes can be replayed from the seed. */
export const seededRandom = mulberry32;

const KMP_FLOWS = fs
  .readFileSync(path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string });

/** `n` valid flows (the KMP-style examples with new ids `${prefix}-00001` …) as a JSONL string. */
export function flowsJsonl(prefix: string, n: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const base = KMP_FLOWS[(i - 1) % KMP_FLOWS.length];
    lines.push(JSON.stringify({ ...base, id: `${prefix}-${String(i).padStart(5, '0')}` }));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes `n` flows to `dir/prefix.jsonl` and returns the path. */
export function writeFlowsFile(dir: string, prefix: string, n: number): string {
  const file = path.join(dir, `${prefix}.jsonl`);
  fs.writeFileSync(file, flowsJsonl(prefix, n));
  return file;
}
