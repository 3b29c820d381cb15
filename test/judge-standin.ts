import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local OpenAI-compatible chat-completions server for the judge runner's tests and benchmark. It answers
 * deterministically from the prompt (a verdict chosen by the prompt's hash, so both orders of one item may
 * disagree, as real judges do) and, on command, misbehaves: 429 with Retry-After, 500, an answer that never comes,
 * a closed connection, text without a verdict, truncated JSON, an error or an answer that quotes the request's
 * Authorization header back (as some servers do), a page that is not a chat completion, an answer of
 * HUGE_ANSWER_CHARS characters, a body that never ends. It can also hold every answer until the test lets them go
 * (`hold`/`releaseHeld`). It counts requests per prompt hash — the same hash the runner stores with each answer — so
 * a test can prove that nothing answered was sent twice.
 */

export type Misbehaviour =
  | 'ok' | '429' | '500' | 'hang' | 'close' | 'noverdict' | 'truncated' | '401'
  | 'echo-key' | 'echo-key-answer' | 'html' | 'huge' | 'endless';

/** The length of a 'huge' answer: reasoning of this many characters, then the verdict. */
export const HUGE_ANSWER_CHARS = 300_000;

export type StandIn = {
  url: string;
  port: number;
  /** The next `count` requests behave so (queued in order; then back to normal). */
  misbehave(kind: Misbehaviour, count?: number, opts?: { retryAfter?: string }): void;
  /** Every request from now on behaves so (until `always('ok')`). */
  always(kind: Misbehaviour): void;
  setDelay(ms: number): void;
  /** From now on, answers wait (the requests stay in flight) until `releaseHeld`. */
  hold(): void;
  /** Sends every answer held and stops holding. */
  releaseHeld(): void;
  /** How many requests are waiting for `releaseHeld`. */
  held(): number;
  /** Requests seen per prompt hash (sha256 of the messages' JSON), answered or not. */
  counts: Map<string, number>;
  /** Times (ms) at which requests arrived, in order. */
  arrivals: number[];
  authorizations: Set<string>;
  total(): number;
  close(): Promise<void>;
};

const VERDICTS = ['first', 'second', 'tie'] as const;

export function verdictFor(hash: string) {
  return VERDICTS[parseInt(hash.slice(0, 8), 16) % 3];
}

export async function startStandIn(opts: { port?: number; delayMs?: number; says?: string } = {}): Promise<StandIn> {
  const queue: { kind: Misbehaviour; retryAfter?: string }[] = [];
  let standing: Misbehaviour = 'ok';
  let delay = opts.delayMs ?? 0;
  let holding = false;
  let waiting: (() => void)[] = [];
  const counts = new Map<string, number>();
  const arrivals: number[] = [];
  const authorizations = new Set<string>();
  let total = 0;
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      total++;
      arrivals.push(Date.now());
      if (req.headers.authorization) authorizations.add(req.headers.authorization);
      let body: { messages?: unknown; model?: string };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      const hash = createHash('sha256').update(JSON.stringify(body.messages)).digest('hex');
      counts.set(hash, (counts.get(hash) ?? 0) + 1);
      const next = queue.shift() ?? { kind: standing };
      const answer = (content: string) =>
        JSON.stringify({
          id: `cmpl-${total}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: Math.ceil(content.length / 4) },
        });
      const respond = () => {
        switch (next.kind) {
          case '429':
            res
              .writeHead(429, { 'retry-after': next.retryAfter ?? '1', 'content-type': 'application/json' })
              .end('{"error":"rate limited"}');
            return;
          case '500':
            res.writeHead(500).end('internal error');
            return;
          case '401':
            res.writeHead(401).end('{"error":"bad key"}');
            return;
          case 'echo-key':
            res
              .writeHead(401, { 'content-type': 'application/json' })
              .end(JSON.stringify({ error: { message: `Incorrect API key provided in "${req.headers.authorization ?? ''}".` } }));
            return;
          case 'echo-key-answer':
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(answer(`You sent ${req.headers.authorization ?? 'no key'}. {"winner": "tie"}`));
            return;
          case 'html':
            res
              .writeHead(200, { 'content-type': 'text/html' })
              .end('<html><body>Internal admin console: db-password=hunter2</body></html>');
            return;
          case 'hang':
            return; // never answers; the runner's time-out ends it
          case 'close':
            req.socket.destroy();
            return;
          case 'noverdict':
            res.writeHead(200, { 'content-type': 'application/json' }).end(answer('Both replies have their merits and I cannot decide.'));
            return;
          case 'huge':
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(answer(`${'x'.repeat(HUGE_ANSWER_CHARS)}\n{"winner": "${verdictFor(hash)}"}`));
            return;
          case 'endless': {
            // A body that never ends: 64 KiB at a time for as long as the client reads.
            res.writeHead(200, { 'content-type': 'application/json' });
            const chunk = Buffer.alloc(64 * 1024, 0x20);
            const write = () => {
              while (!res.destroyed && res.write(chunk));
              if (!res.destroyed) res.once('drain', write);
            };
            res.on('close', () => res.removeAllListeners('drain'));
            write();
            return;
          }
          case 'truncated':
            res.writeHead(200, { 'content-type': 'application/json' }).end(answer('Reasoning done. {"winner": "fir'));
            return;
          default:
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(answer(`${opts.says ?? 'I compared them.'}\n{"winner": "${verdictFor(hash)}"}`));
        }
      };
      if (holding) waiting.push(respond);
      else if (delay > 0) setTimeout(respond, delay);
      else respond();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    misbehave(kind, count = 1, o = {}) {
      for (let i = 0; i < count; i++) queue.push({ kind, retryAfter: o.retryAfter });
    },
    always(kind) {
      standing = kind;
    },
    setDelay(ms) {
      delay = ms;
    },
    hold() {
      holding = true;
    },
    releaseHeld() {
      holding = false;
      const go = waiting;
      waiting = [];
      for (const respond of go) respond();
    },
    held: () => waiting.length,
    counts,
    arrivals,
    authorizations,
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// `node --import tsx test/judge-standin.ts PORT [DELAY_MS] [SAYS]` runs one in a process of its own (for a test
// whose own process blocks, and for trying the runner by hand); it prints its URL on one line.
if (process.argv[1]?.endsWith('judge-standin.ts')) {
  const [port, delayMs, says] = process.argv.slice(2);
  void startStandIn({ port: Number(port) || 0, delayMs: Number(delayMs) || 0, says }).then((s) => process.stdout.write(`${s.url}\n`));
}
