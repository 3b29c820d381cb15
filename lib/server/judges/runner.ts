import 'server-only';
import os from 'node:os';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-launches';
import { findStudy, type StudyRow } from '@/db/queries/studies';
import { readVerdicts, type JudgeTemplate } from '@/lib/validation/judge-template';
import { conflict, notFound } from '../errors';
import { judgeText } from './answer-limits';
import { DEFAULT_BACKOFF, chatCompletion, platformAgent, type RetryPolicy } from './http';
import {
  allowedLabels,
  assertJudgeable,
  cacheKey,
  parseTemplate,
  promptHash,
  promptText,
  renderRequest,
  requestKey,
  requestsForItem,
  judgesOf,
  type PlannedRequest,
} from './plan';
import { runTarget } from './run-endpoint';

/*
 * The runner: sends a launched run's requests that have no answer yet, `concurrency` at a time, and stores the
 * answers that arrive within COMMIT_EVERY_MS in one transaction, so a crash loses nothing stored and a restart sends
 * only the rest (answers received but not yet stored are asked for again, like requests in flight).
 * It runs in a process of its own (the CLI's, or `runner-child.ts` started by the server), never in a request.
 */

/** How often the runner proves it is alive and reads whether the run was paused or cancelled. */
export const HEARTBEAT_MS = 1_000;
/** A runner silent this long is taken for dead (its process may be gone or its pid reused). */
export const STALE_MS = 15_000;

export function processAlive(pid: number, host: string) {
  if (host !== os.hostname()) return true; // another machine: only its heartbeat can tell
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Answers are committed at most this long after they arrive, or as soon as this many are waiting. */
export const COMMIT_EVERY_MS = 100;
const COMMIT_MAX = 512;
/** How long the runner waits before committing again when the database stayed locked past its busy time-out. */
const BUSY_RETRY_MS = 200;
/** Tries of the last commit of a run before the runner gives up (with the answers re-sent on resume). */
const FINAL_FLUSH_ATTEMPTS = 50;
const isBusy = (e: unknown) =>
  typeof (e as { code?: unknown })?.code === 'string' && (e as { code: string }).code.startsWith('SQLITE_BUSY');

export type RunOutcome = { state: q.LaunchRow['state']; reason: string | null };

/**
 * The step that writes an answer's verdicts as the run's verdicts, as the study's kind stores them (pairwise: sample
 * 1 only, from reply a's side, with the order sent; rubric: every sample, as codes of the catalog).
 */
function storeVerdicts(db: Db, study: StudyRow, runId: number, r: PlannedRequest, verdicts: Record<string, string>) {
  judgesOf(study).storeVerdicts(db, study, runId, r, verdicts);
}

/** Reads an answer: the labels per criterion (as the kind stores them) and how many criteria could not be read. */
function readAnswer(study: StudyRow, template: JudgeTemplate, raw: string, r: PlannedRequest) {
  const read = readVerdicts(template.answer, judgeText(raw), r.criteria, (c) => allowedLabels(study, c), template.together);
  const verdicts = judgesOf(study).stored(read, r.swapped);
  return { verdicts, unreadable: r.criteria.length - Object.keys(verdicts).length };
}

/** Items read per page while planning a run. */
export const PLAN_PAGE = 256;
export type PlanOpts = { samples: number; bothOrders: boolean };

/** The run's items, a page at a time, each with its payload read (the first `limit` items in position order). */
function* itemPages(db: Db, studyId: number, limit: number | null): Generator<{ id: number; item: unknown }[]> {
  let after = Number.MIN_SAFE_INTEGER;
  let left = limit ?? Number.POSITIVE_INFINITY;
  while (left > 0) {
    const rows = q.itemsPageForRun(db, studyId, after, Math.min(PLAN_PAGE, left));
    if (!rows.length) return;
    after = rows[rows.length - 1].position;
    left -= rows.length;
    yield rows.map((r) => ({ id: r.id, item: JSON.parse(r.payload) as unknown }));
  }
}

/**
 * How many requests the run has in all (answered or not). An item's requests depend on the study, the template and
 * the item's principles only, so items are counted by their principles in SQL and one item of each kind is planned:
 * fast enough to count at launch, in the server's request, before the runner process claims the run.
 */
export function countRequests(db: Db, study: StudyRow, template: JudgeTemplate, limit: number | null, opts: PlanOpts) {
  let total = 0;
  for (const { principles, n } of q.itemCountsByPrinciples(db, study.id, limit)) {
    const item = principles === null ? {} : { principles: JSON.parse(principles) as unknown };
    let perItem = 0;
    for (const _ of requestsForItem(study, template, 0, item, opts)) perItem++;
    total += perItem * n;
  }
  return total;
}

/**
 * The run's requests that have no answer yet, in plan order, with their item: a page of items and the answers
 * they have are read when the previous page is used up, so at most one page is held whatever the study's size.
 */
function* pendingRequests(db: Db, runId: number, study: StudyRow, template: JudgeTemplate, limit: number | null, opts: PlanOpts) {
  for (const page of itemPages(db, study.id, limit)) {
    const answered = q.answeredKeysOfItems(
      db,
      runId,
      page.map((p) => p.id),
    );
    for (const { id, item } of page)
      for (const request of requestsForItem(study, template, id, item, opts))
        if (!answered.has(requestKey(request))) yield { request, item };
  }
}

/**
 * Runs (or resumes) launched run `runId` in this process until every request has an answer, the run is paused or
 * cancelled, or the circuit opens. Throws `conflict` if another live process is running it.
 */
export async function runJudge(
  runId: number,
  opts: { log?: (line: string) => void; readKey?: (variable: string) => string | undefined } = {},
): Promise<RunOutcome> {
  const db = getDb();
  const launch = q.findLaunch(db, runId);
  if (!launch) throw notFound('That judge run');
  const pid = process.pid;
  const host = os.hostname();
  if (!q.claimLaunch(db, runId, pid, host, Date.now(), Date.now() - STALE_MS, processAlive))
    throw conflict(`The judge run "${launch.name}" is being run by process ${launch.ownerPid} on ${launch.ownerHost}.`);
  const study = findStudy(db, launch.studyId)!;
  assertJudgeable(study);
  const template = parseTemplate(JSON.parse(q.templateById(db, launch.templateId)!.body));
  const planOpts = { samples: launch.samples, bothOrders: launch.bothOrders === 1 };
  // The plan is read a page of items at a time, never held whole: memory stays the same for any study size.
  const total = countRequests(db, study, template, launch.itemLimit, planOpts);
  const answeredBefore = q.answerCount(db, runId);
  let queue = pendingRequests(db, runId, study, template, launch.itemLimit, planOpts);
  q.setLaunchCounts(db, runId, total, 0);

  const stopAll = new AbortController(); // cancel, SIGTERM: in-flight requests are abandoned
  let stopDispatch = false; // pause, circuit: in-flight requests finish and are stored
  // A run paused (or cancelled) before this runner got to it: nothing is sent.
  if (q.launchState(db, runId) !== 'running') stopDispatch = true;
  const terminate = () => {
    stopDispatch = true;
    stopAll.abort();
  };
  let circuit: string | null = null;
  let failed = 0;
  let lastFailure = '';
  let consecutive = 0;

  // The endpoint and key variable come from the admin's configuration (run-endpoint.ts); the key from `readKey`
  // (the runner child's one variable) or, on the command line, from the process's environment.
  const target = runTarget(db, launch);
  const keyEnv = target.ok ? target.keyEnv : null;
  const apiKey = keyEnv ? (opts.readKey ?? ((v) => process.env[v]))(keyEnv) : undefined;
  if (!target.ok || (keyEnv && !apiKey)) {
    circuit = target.ok ? `the environment variable ${keyEnv} is not set in the process running the judge` : target.reason;
    stopDispatch = true;
  }

  const watch = setInterval(() => {
    try {
      beat();
    } catch (e) {
      if (!isBusy(e)) throw e; // the database is busy: skip this beat, the next one comes in a second
    }
  }, HEARTBEAT_MS);
  const beat = () => {
    q.heartbeatLaunch(db, runId, pid, Date.now());
    q.setLaunchCounts(db, runId, total, failed);
    const state = q.launchState(db, runId);
    if (state === 'cancelled') {
      stopDispatch = true;
      stopAll.abort();
    } else if (state !== 'running') stopDispatch = true;
  };

  const policy: RetryPolicy = { timeoutMs: launch.timeoutMs, maxAttempts: launch.maxAttempts, ...DEFAULT_BACKOFF };
  const params = {
    endpoint: target.ok ? target.url : launch.endpoint,
    model: launch.model,
    temperature: launch.temperatureMilli === null ? null : launch.temperatureMilli / 1000,
    maxTokens: launch.maxTokens,
    seed: launch.seed,
  };
  const agent = await platformAgent(launch.concurrency);
  let stored = 0;

  async function worker() {
    while (!stopDispatch) {
      const next = queue.next();
      if (next.done) return;
      const { request: r, item } = next.value;
      const messages = renderRequest(study, template, item, r);
      const text = promptText(messages);
      const hash = promptHash(text);
      const seed = params.seed === null ? null : params.seed + r.sample - 1;
      const key = cacheKey({ ...params, seed }, text, r.sample);
      const hit = q.cachedAnswer(db, key);
      let raw: string;
      let meta: { tokensIn: number; tokensOut: number; latencyMs: number; attempts: number; cached: boolean };
      if (hit) {
        raw = hit.raw;
        meta = { tokensIn: hit.tokensIn, tokensOut: hit.tokensOut, latencyMs: 0, attempts: 0, cached: true };
      } else {
        const res = await chatCompletion({ ...params, seed, apiKey, messages }, policy, agent, stopAll.signal);
        if (!res.ok) {
          if (stopAll.signal.aborted) return;
          failed++;
          consecutive++;
          lastFailure = res.reason;
          if (consecutive >= launch!.circuitAfter && !circuit) {
            circuit = `${consecutive} requests in a row failed; the last: ${res.reason}`;
            stopDispatch = true;
          }
          continue;
        }
        consecutive = 0;
        raw = res.text;
        meta = { tokensIn: res.tokensIn, tokensOut: res.tokensOut, latencyMs: res.latencyMs, attempts: res.attempts, cached: false };
      }
      const { verdicts, unreadable } = readAnswer(study, template, raw, r);
      commitSoon({
        answer: {
          runId,
          itemId: r.itemId,
          criterion: r.criterion,
          sample: r.sample,
          swapped: r.swapped,
          verdicts,
          unreadable,
          raw,
          promptHash: hash,
          ...meta,
        },
        request: r,
        key,
      });
      // A cached answer needs no wait: give the commit and the heartbeat their turn before the next one.
      if (meta.cached) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  // Answers are committed together, those that arrived within COMMIT_EVERY_MS (or COMMIT_MAX of them) in one
  // transaction: with synchronous=FULL every commit waits for the disk, and that wait blocks the event loop, so
  // committing each answer, or each event-loop turn's answers, capped the run at the disk's commit rate. An answer
  // not yet committed when the process dies was never stored, so a resumed run asks for it again, like a request
  // that was still in flight.
  type Uncommitted = { answer: q.NewAnswer; request: PlannedRequest; key: string };
  let uncommitted: Uncommitted[] = [];
  let flushing: ReturnType<typeof setTimeout> | null = null;
  // When another writer holds the database past its busy time-out, the batch stays uncommitted and is tried again
  // shortly, instead of the runner dying with answers it already has (the last try, at the end, gives up loudly).
  let retrying: ReturnType<typeof setTimeout> | null = null;
  function flush(last = false) {
    flushing = null;
    const batch = uncommitted;
    uncommitted = [];
    if (!batch.length) return;
    let cancelled = false;
    try {
      q.inOneTransaction(db, () => {
        // Checked in the transaction that would write: once a lead's cancel has committed, no verdict follows it.
        if (q.launchState(db, runId) === 'cancelled') {
          cancelled = true;
          return;
        }
        for (const { answer, request, key } of batch)
          q.insertAnswerInTransaction(db, answer, () => {
            if (!answer.cached) q.putCachedAnswer(db, key, answer.raw, answer.tokensIn, answer.tokensOut);
            storeVerdicts(db, study, runId, request, answer.verdicts);
          });
      });
    } catch (e) {
      if (last || !isBusy(e)) throw e;
      uncommitted = batch.concat(uncommitted);
      retrying ??= setTimeout(() => ((retrying = null), flush()), BUSY_RETRY_MS);
      return;
    }
    if (cancelled) {
      terminate();
      return;
    }
    stored += batch.length;
  }
  function commitSoon(u: Uncommitted) {
    uncommitted.push(u);
    if (uncommitted.length >= COMMIT_MAX) {
      if (flushing) clearTimeout(flushing);
      flushing = setTimeout(flush, 0);
    } else flushing ??= setTimeout(flush, COMMIT_EVERY_MS);
  }

  const progress = opts.log
    ? setInterval(() => opts.log!(`${launch.name}: ${answeredBefore + stored} of ${total} answered, ${failed} failed`), 2_000)
    : null;
  async function flushAll() {
    if (flushing) clearTimeout(flushing);
    if (retrying) clearTimeout(retrying);
    flushing = retrying = null;
    for (let attempt = 1; ; attempt++) {
      flush(attempt === FINAL_FLUSH_ATTEMPTS);
      if (!uncommitted.length) break;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
  }

  // `judge cancel` and the web app's cancel end the runner with SIGTERM (runner-process.ts): stop at once, storing
  // nothing more if the run was cancelled (`flush` checks), what has arrived otherwise.
  process.on('SIGTERM', terminate);
  try {
    for (;;) {
      const left = total - q.answerCount(db, runId);
      await Promise.all(Array.from({ length: Math.min(launch.concurrency, Math.max(1, left)) }, worker));
      await flushAll();
      if (!stopDispatch || circuit || stopAll.signal.aborted) break;
      // Paused: the requests in flight have drained. The run goes back unless a lead resumed it meanwhile; then the
      // runner that resume started has found this one alive and left, so this one goes on (issue 21, point 8).
      if (q.releaseUnlessRunning(db, runId, pid)) break;
      stopDispatch = false;
      queue = pendingRequests(db, runId, study, template, launch.itemLimit, planOpts);
    }
  } finally {
    await flushAll();
    clearInterval(watch);
    if (progress) clearInterval(progress);
    process.off('SIGTERM', terminate);
    await agent.close().catch(() => {});
  }
  q.setLaunchCounts(db, runId, total, failed);
  if (circuit) {
    q.setLaunchState(db, runId, ['running'], 'circuit_open', circuit);
  } else if (!stopDispatch && failed > 0) {
    q.setLaunchState(
      db,
      runId,
      ['running'],
      'paused',
      `${failed} request(s) failed (the last: ${lastFailure}); resume the run to send them again`,
    );
  } else if (!stopDispatch) {
    q.setLaunchState(db, runId, ['running'], 'done', null);
  }
  const end = q.findLaunch(db, runId)!;
  const outcome: RunOutcome = { state: end.state, reason: end.reason };
  q.releaseLaunch(db, runId, pid);
  return outcome;
}
