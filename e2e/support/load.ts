// Scripted annotators for the load and crash specs: they use the JSON endpoints the review screen's data comes
// from (queue, assignment, submission) over HTTP, each with its own signed-in request context.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { APIRequestContext } from '@playwright/test';

export type QueueReply = { total: number; submitted: number; currentId: number | null; nextId: number | null };

export type SubmitReply = {
  ok: boolean;
  data?: { assignmentId: number; revision: number; duplicate: boolean; queue: QueueReply };
  error?: string;
};

export type Posted = { status: number; body: SubmitReply | null; ms: number };

/** A request id as the review screen makes them: unique, 8–64 characters of [A-Za-z0-9_-]. */
export function newRequestId(tag: string): string {
  return `${tag}-${randomBytes(9).toString('base64url')}`.slice(0, 64);
}

/** POSTs one flow decision (verify); throws only when the connection fails (e.g. the server was killed). */
export async function postSubmission(ctx: APIRequestContext, assignmentId: number, requestId: string): Promise<Posted> {
  const t0 = performance.now();
  const res = await ctx.post(`/api/assignments/${assignmentId}/submission`, {
    data: { requestId, activeMs: 1000, decision: { decision: 'verify' } },
  });
  const ms = performance.now() - t0;
  const body = (await res.json().catch(() => null)) as SubmitReply | null;
  return { status: res.status(), body, ms };
}

export async function getQueue(ctx: APIRequestContext, studyId: number): Promise<{ status: number; body: QueueReply | null }> {
  const res = await ctx.get(`/api/studies/${studyId}/queue`);
  return { status: res.status(), body: (await res.json().catch(() => null)) as QueueReply | null };
}

const acked = (p: Posted) => p.status === 200 && p.body?.ok === true && !!p.body.data;

export type Failure = { username: string; step: string; status?: number; detail: string };

export type AnnotatorResult = {
  username: string;
  /** assignment id → the request id the server acknowledged for it */
  acked: Map<number, string>;
  /** every POST's latency, in ms */
  latencies: number[];
  retries: number;
  doubles: number;
  failures: Failure[];
};

/**
 * One annotator working through `submissions` items: GET queue once, then GET assignment → POST submission, whose
 * answer carries the queue as it now stands (the next current item).
 * A share of submits is sent again after the answer (`retryRate`) or twice at once (`doubleRate`), always with
 * the same request id, as a flaky network or a double key press would.
 */
export async function runAnnotator(
  ctx: APIRequestContext,
  o: {
    username: string;
    studyId: number;
    submissions: number;
    random: () => number;
    retryRate: number;
    doubleRate: number;
    /** submissions already in the queue's count when this run starts */
    alreadySubmitted?: number;
    /** time spent "reading" each item before submitting it (none: a closed loop as fast as the server answers) */
    thinkMs?: () => number;
  },
): Promise<AnnotatorResult> {
  const r: AnnotatorResult = { username: o.username, acked: new Map(), latencies: [], retries: 0, doubles: 0, failures: [] };
  const fail = (step: string, detail: string, status?: number) => r.failures.push({ username: o.username, step, status, detail });
  let queue: QueueReply | null = null; // null: ask for it (at the start, and after a failed submit)
  for (let k = 0; k < o.submissions; k++) {
    if (!queue) {
      const asked = await getQueue(ctx, o.studyId);
      if (asked.status !== 200 || !asked.body) return (fail('queue', JSON.stringify(asked.body), asked.status), r);
      queue = asked.body;
    }
    const expected = (o.alreadySubmitted ?? 0) + k;
    if (queue.submitted !== expected) fail('queue', `submitted ${queue.submitted}, expected ${expected}`);
    const id = queue.currentId;
    if (id === null) return (fail('queue', 'no current item'), r);
    if (r.acked.has(id)) return (fail('queue', `assignment ${id} offered again after it was submitted`), r);

    const item = await ctx.get(`/api/assignments/${id}`);
    const view = (await item.json().catch(() => null)) as { kind?: string; state?: string } | null;
    if (item.status() !== 200 || view?.kind !== 'flow_review' || view.state !== 'pending') {
      fail('assignment', `${id}: ${JSON.stringify(view)?.slice(0, 200)}`, item.status());
    }
    if (o.thinkMs) await new Promise((resolve) => setTimeout(resolve, o.thinkMs!()));

    const requestId = newRequestId(o.username);
    const roll = o.random();
    let first: Posted;
    if (roll < o.doubleRate) {
      r.doubles++;
      const both = await Promise.all([postSubmission(ctx, id, requestId), postSubmission(ctx, id, requestId)]);
      r.latencies.push(both[0].ms, both[1].ms);
      if (!both.every(acked)) {
        fail('double submit', both.map((p) => `${p.status} ${JSON.stringify(p.body)}`).join(' | '));
        queue = null;
        continue;
      }
      const fresh = both.filter((p) => !p.body!.data!.duplicate).length;
      if (fresh !== 1) fail('double submit', `${fresh} of 2 answers say "not a duplicate", expected exactly 1`);
      if (both[0].body!.data!.revision !== both[1].body!.data!.revision) fail('double submit', 'the two answers name different revisions');
      first = both.find((p) => !p.body!.data!.duplicate) ?? both[0];
    } else {
      first = await postSubmission(ctx, id, requestId);
      r.latencies.push(first.ms);
      if (!acked(first)) {
        fail('submit', `${id}: ${JSON.stringify(first.body)}`, first.status);
        queue = null;
        continue;
      }
      if (first.body!.data!.duplicate) fail('submit', `${id}: a first submit was answered as a duplicate`);
      if (roll < o.doubleRate + o.retryRate) {
        r.retries++;
        const again = await postSubmission(ctx, id, requestId);
        r.latencies.push(again.ms);
        if (!acked(again) || !again.body!.data!.duplicate || again.body!.data!.revision !== first.body!.data!.revision) {
          fail('retry', `${id}: ${again.status} ${JSON.stringify(again.body)}`, again.status);
        }
      }
    }
    if (first.body!.data!.assignmentId !== id) fail('submit', `answer names assignment ${first.body!.data!.assignmentId}, sent ${id}`);
    r.acked.set(id, requestId);
    queue = first.body!.data!.queue;
  }
  return r;
}

export type CrashLoadResult = {
  username: string;
  /** acknowledged: assignment id → request id */
  acked: Map<number, string>;
  /** sent but not answered (the server died), to be sent again after the restart */
  inFlight: { assignmentId: number; requestId: string }[];
  /** answers that were neither 200 ok nor a dropped connection */
  failures: Failure[];
};

/** Submits from the queue as fast as the server answers until the connection drops (the server was killed). */
export async function submitUntilConnectionDrops(ctx: APIRequestContext, username: string, studyId: number): Promise<CrashLoadResult> {
  const r: CrashLoadResult = { username, acked: new Map(), inFlight: [], failures: [] };
  for (;;) {
    let queue;
    try {
      queue = await getQueue(ctx, studyId);
    } catch {
      return r;
    }
    if (queue.status !== 200 || !queue.body) {
      r.failures.push({ username, step: 'queue', status: queue.status, detail: JSON.stringify(queue.body) });
      return r;
    }
    const id = queue.body.currentId;
    if (id === null) return r;
    const requestId = newRequestId(username);
    let posted: Posted;
    try {
      posted = await postSubmission(ctx, id, requestId);
    } catch {
      r.inFlight.push({ assignmentId: id, requestId });
      return r;
    }
    if (!acked(posted)) {
      r.failures.push({ username, step: 'submit', status: posted.status, detail: JSON.stringify(posted.body) });
      return r;
    }
    r.acked.set(id, requestId);
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function latencySummary(samples: readonly number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const f = (x: number) => `${x.toFixed(1)} ms`;
  return `n=${s.length}  p50 ${f(percentile(s, 50))}  p95 ${f(percentile(s, 95))}  p99 ${f(percentile(s, 99))}  max ${f(s[s.length - 1] ?? NaN)}`;
}
