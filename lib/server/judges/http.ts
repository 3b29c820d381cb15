import 'server-only';
import { chatCompletionsUrl } from '@/lib/validation/judge-endpoints';
import type { ChatMessage } from '@/lib/validation/judge-template';
import { MAX_RESPONSE_BYTES, capAnswer, readBodyUpTo } from './answer-limits';
import { redactKey } from './redact';

/*
 * One OpenAI-compatible chat-completions call (`POST {base}/chat/completions`, not streamed) with the platform's
 * fetch, retried on 429, 5xx, time-outs and broken connections with exponential backoff and full jitter, honouring
 * Retry-After. Node's fetch is undici; Node does not export undici's Agent, so the runner takes the constructor of
 * the global dispatcher (an undici Agent) to make a pool of its own, sized to the run's concurrency.
 */

type Dispatcher = { close(): Promise<void> };
type AgentCtor = new (opts: { connections: number; keepAliveTimeout: number; pipelining: number }) => Dispatcher;

/** A connection pool of the platform's fetch holding at most `connections` connections per origin. */
export async function platformAgent(connections: number): Promise<Dispatcher> {
  // The global dispatcher is created by the first fetch; a data: URL makes it without touching the network.
  await (await fetch('data:,')).text();
  const global = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] as object | undefined;
  if (!global) throw new Error("this Node has no undici dispatcher behind fetch; cannot size the judge's connection pool");
  const Agent = global.constructor as AgentCtor;
  return new Agent({ connections, keepAliveTimeout: 10_000, pipelining: 1 });
}

export type ChatRequest = {
  endpoint: string;
  model: string;
  apiKey: string | undefined;
  messages: ChatMessage[];
  temperature: number | null;
  maxTokens: number | null;
  seed: number | null;
};

export type ChatAnswer = { ok: true; text: string; tokensIn: number; tokensOut: number; latencyMs: number; attempts: number };
export type ChatFailure = { ok: false; reason: string; attempts: number; latencyMs: number };

export type RetryPolicy = { timeoutMs: number; maxAttempts: number; baseDelayMs: number; maxDelayMs: number };

export const DEFAULT_BACKOFF = { baseDelayMs: 500, maxDelayMs: 30_000 };
/** A Retry-After beyond this is not waited for here: the request counts as failed (the circuit decides the rest). */
const MAX_RETRY_AFTER_MS = 120_000;

/** `{base}/chat/completions`, on the base URL's path only (a query or fragment in it never reaches the request). */
export const chatUrl = chatCompletionsUrl;

/**
 * What a failed answer says, for the reason shown to leads: an OpenAI-style error message (`{"error": {"message"}}`
 * or `{"error": "…"}`), else only its content type and size. Any other body is not echoed: it may be any service's
 * page (issue 21: the endpoint used to be any URL).
 */
function describeBody(text: string, res: Response): string {
  try {
    const e = (JSON.parse(text) as { error?: unknown })?.error;
    const message = typeof e === 'string' ? e : (e as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return `: ${message.trim().slice(0, 300)}`;
  } catch {
    // not JSON: described below
  }
  return text ? ` (${bodyShape(text, res)})` : '';
}

const bodyShape = (text: string, res: Response) =>
  `${res.headers.get('content-type')?.split(';')[0] || 'no content type'}, ${Buffer.byteLength(text)} bytes`;

/** Retry-After in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Full jitter: uniform in [0, min(max, base · 2^(attempt−1))]. */
export function backoffMs(attempt: number, p: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random = Math.random) {
  return Math.round(random() * Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1)));
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Sends one request, retrying what may succeed later; never throws (an abort by `signal` is a failure). */
export async function chatCompletion(
  req: ChatRequest,
  policy: RetryPolicy,
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<ChatAnswer | ChatFailure> {
  const body = JSON.stringify({
    model: req.model,
    messages: req.messages,
    stream: false,
    ...(req.temperature !== null ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== null ? { max_tokens: req.maxTokens } : {}),
    ...(req.seed !== null ? { seed: req.seed } : {}),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`;
  let reason = '';
  let latencyMs = 0;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (signal.aborted) return { ok: false, reason: 'stopped', attempts: attempt - 1, latencyMs };
    const started = performance.now();
    let wait: number | null = null;
    try {
      const res = await fetch(chatUrl(req.endpoint), {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]),
        // @ts-expect-error undici's option, not in the DOM RequestInit type
        dispatcher,
      });
      const raw = await readBodyUpTo(res);
      latencyMs = Math.round(performance.now() - started);
      if (raw === null)
        return { ok: false, reason: `the response body is larger than ${MAX_RESPONSE_BYTES} bytes`, attempts: attempt, latencyMs };
      // The key is taken out before anything of the answer is read, kept or shown (redact.ts).
      const text = redactKey(raw, req.apiKey);
      if (res.ok) {
        const parsed = parseCompletion(text);
        if (parsed) return { ok: true, ...parsed, text: capAnswer(parsed.text), latencyMs, attempts: attempt };
        reason = `the endpoint's answer is not a chat completion (HTTP ${res.status}, ${bodyShape(text, res)})`;
      } else if (res.status === 429 || res.status >= 500) {
        reason = `HTTP ${res.status}${describeBody(text, res)}`;
        wait = retryAfterMs(res.headers.get('retry-after'));
        if (wait !== null && wait > MAX_RETRY_AFTER_MS)
          return { ok: false, reason: `${reason} (Retry-After ${wait} ms)`, attempts: attempt, latencyMs };
      } else {
        // 400, 401, 404 …: sending it again changes nothing
        return { ok: false, reason: `HTTP ${res.status}${describeBody(text, res)}`, attempts: attempt, latencyMs };
      }
    } catch (e) {
      latencyMs = Math.round(performance.now() - started);
      if (signal.aborted) return { ok: false, reason: 'stopped', attempts: attempt, latencyMs };
      const err = e as Error & { cause?: { code?: string; message?: string } };
      reason =
        err.name === 'TimeoutError'
          ? `no answer within ${policy.timeoutMs} ms`
          : redactKey(`connection failed: ${err.cause?.code ?? err.cause?.message ?? err.message}`, req.apiKey);
    }
    if (attempt < policy.maxAttempts) await sleep(wait ?? backoffMs(attempt, policy), signal);
  }
  return { ok: false, reason: `${reason} (after ${policy.maxAttempts} attempts)`, attempts: policy.maxAttempts, latencyMs };
}

/** The reply text and token counts of a chat completion; null when the body is not one. */
export function parseCompletion(body: string): { text: string; tokensIn: number; tokensOut: number } | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const j = json as { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
  const content = j?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);
  return { text: content, tokensIn: n(j.usage?.prompt_tokens), tokensOut: n(j.usage?.completion_tokens) };
}
