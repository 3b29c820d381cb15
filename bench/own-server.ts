/**
 * What the benchmarks that run the production server share: a temporary folder and database, the server on it
 * (`OwnServer`, `next start` in its own process group), and their removal at the end whatever happens; the
 * machine's conditions for the report; the server's memory; a light HTTP client for many simulated people.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { OwnServer, pool, signInOverHttp } from '@/e2e/support/server';

export type BenchServer = { dir: string; db: string; server: OwnServer };

/**
 * Runs `fn` with a new temporary folder, a database path in it and a server (not started: `fn` prepares the
 * database with the CLI first, then calls `server.start()`), then kills the server and removes the folder.
 */
export async function withOwnServer<T>(
  name: string,
  port: number,
  fn: (b: BenchServer) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `concord-bench-${name}-`));
  const db = path.join(dir, 'concord.db');
  const server = new OwnServer(db, port, env);
  try {
    return await fn({ dir, db, server });
  } finally {
    await server.kill9();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `node v…, 2 cores, load average 1.2 0.9 0.7`: printed next to every result (the machine is shared). */
export function conditions(): string {
  return `node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
}

/** Resident memory (MB) of the server's process group: the server itself, and all of it with its children. */
export function serverMemory(server: OwnServer): { serverMB: number; groupMB: number } | null {
  const pgid = server.proc?.child.pid;
  if (!pgid) return null;
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,rss=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  } catch {
    return null;
  }
  let serverKB = 0;
  let groupKB = 0;
  for (const line of out.trim().split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const kb = Number(m[2]);
    groupKB += kb;
    // `next start` and the server process it runs (next-server); children (imports, reports, backups) run from
    // their bundle (lib/bundle/process-bundle.mjs), or under tsx in an older checkout.
    if (!/concord-bundle\/|--import tsx|lib\/server\//.test(m[3])) serverKB += kb;
  }
  return { serverMB: serverKB / 1024, groupMB: groupKB / 1024 };
}

/** The size of a file in MB, 0 when it does not exist. */
export function fileMB(file: string): number {
  try {
    return fs.statSync(file).size / 1e6;
  } catch {
    return 0;
  }
}

type RequestInit_ = { json?: unknown; body?: BodyInit; headers?: Record<string, string> };

export type Reply = { status: number; body: unknown; text: string; ms: number };

/**
 * A signed-in person as a plain `fetch` client with the session cookie (lighter than a browser or a Playwright
 * context per person, for hundreds of them). `action` calls a server action as the review screen does.
 */
export class HttpPerson {
  constructor(
    readonly baseURL: string,
    readonly username: string,
    private readonly cookie: string,
  ) {}

  /** Requests sent a second time because the connection was reset before any answer came (see `request`). */
  static resent = 0;

  /**
   * Send JSON and body-less requests with node:http over kept-alive connections instead of `fetch`. The load
   * generator shares the machine's cores with the server it measures: at 400 annotators against two server
   * processes, `fetch` (undici, Web streams) cost the generator ~0.7 ms of CPU a request, half of what the server
   * spent, and node:http ~0.37 ms (BENCHMARKS "Direct routes"). Off by default, so that every other benchmark keeps
   * the client it was measured with; `bench/ceiling.ts` turns it on unless given `--client fetch`.
   */
  static nodeHttp = false;
  private static readonly agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });

  /**
   * One request. A connection reset before any byte of the answer (a pooled keep-alive connection the server closed
   * just as it was reused, which happens when both sides are slow to run) is retried once on a new connection, as
   * browsers do; counted in `HttpPerson.resent`. Any other failure, and a second reset, is a status 0.
   */
  async request(method: string, url: string, init: RequestInit_ = {}): Promise<Reply> {
    const first = await this.once(method, url, init);
    if (first.status !== 0 || !/ECONNRESET|other side closed|UND_ERR_SOCKET/.test(first.text)) return first;
    HttpPerson.resent++;
    const again = await this.once(method, url, init);
    return { ...again, ms: first.ms + again.ms };
  }

  private async once(method: string, url: string, init: RequestInit_): Promise<Reply> {
    const t0 = performance.now();
    const headers: Record<string, string> = { cookie: this.cookie, ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    if (HttpPerson.nodeHttp && (body === undefined || typeof body === 'string')) return this.overNodeHttp(method, url, headers, body, t0);
    let res: Response;
    try {
      res = await fetch(`${this.baseURL}${url}`, {
        method,
        headers,
        body,
        redirect: 'manual',
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      });
    } catch (e) {
      // No answer at all (connection refused or reset): status 0, so that the caller counts it as a failure.
      const cause = (e as Error & { cause?: Error & { code?: string } }).cause;
      const detail = cause ? `: ${cause.code ?? ''} ${cause.message}` : '';
      return { status: 0, body: null, text: `${(e as Error).message}${detail}`, ms: performance.now() - t0 };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      return { status: 0, body: null, text: `the answer broke off: ${(e as Error).message}`, ms: performance.now() - t0 };
    }
    const ms = performance.now() - t0;
    let parsed: unknown = null;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: res.status, body: parsed, text, ms };
  }

  /** `once` over node:http (`nodeHttp`): the same reply, status 0 with the error's text when no answer came. */
  private overNodeHttp(method: string, url: string, headers: Record<string, string>, body: string | undefined, t0: number): Promise<Reply> {
    return new Promise((resolve) => {
      const failed = (e: Error & { code?: string }) =>
        resolve({ status: 0, body: null, text: `${e.message}: ${e.code ?? ''}`, ms: performance.now() - t0 });
      const req = http.request(`${this.baseURL}${url}`, { method, headers, agent: HttpPerson.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', failed);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const ms = performance.now() - t0;
          let parsed: unknown = null;
          if ((res.headers['content-type'] ?? '').includes('json')) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = null;
            }
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text, ms });
        });
      });
      req.on('error', failed);
      req.end(body);
    });
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, json: unknown) {
    return this.request('POST', url, { json });
  }

  /** A server action (`id` from `serverActionId`) posted from `page`, with its arguments. */
  action(page: string, id: string, args: unknown[]) {
    return this.request('POST', page, {
      body: JSON.stringify(args),
      headers: { 'next-action': id, accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', origin: this.baseURL },
    });
  }
}

/** Signs `usernames` in (a few at a time, as sign-in throttling per address expects) and returns them as clients. */
export async function signInPeople(baseURL: string, usernames: string[], password: string): Promise<HttpPerson[]> {
  return pool(usernames, 4, async (username) => {
    const ctx = await signInOverHttp(baseURL, username, password);
    const { cookies } = await ctx.storageState();
    await ctx.dispose();
    return new HttpPerson(baseURL, username, cookies.map((c) => `${c.name}=${c.value}`).join('; '));
  });
}

/**
 * The id of the server action exported as `name` from `file` (relative to the project) in the current production
 * build, read from the build's server-reference manifest.
 */
export function serverActionId(file: string, name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join('.next', 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  for (const [id, entry] of Object.entries(manifest.node)) {
    if (entry.exportedName === name && (!entry.filename || entry.filename.endsWith(file))) return id;
  }
  throw new Error(`no server action ${name} of ${file} in .next/server/server-reference-manifest.json: run npx next build`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Creates accounts on `db` in this process (one process for hundreds of accounts instead of one CLI run each):
 * the same use-case as `concord user add`. Run the script with `--conditions=react-server`; call it before the
 * server starts, and only with this one database in the process.
 */
export async function addAccounts(db: string, usernames: string[], password: string, role = 'annotator') {
  process.env.CONCORD_DB = db;
  const { createUser } = await import('@/lib/server/accounts/users');
  const { cliActor } = await import('@/lib/server/system/system');
  const { closeDb } = await import('@/db/client');
  try {
    const actor = cliActor();
    await pool(usernames, 4, (username) => createUser(actor, { username, displayName: username, password, role }));
  } finally {
    closeDb();
  }
}
