import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { HUGE_ANSWER_CHARS, startStandIn, type StandIn } from '@/test/judge-standin';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { MAX_ANSWER_CHARS, MAX_RESPONSE_BYTES } from './answer-limits';
import { createJudgeEndpoint } from './endpoints';
import { DEFAULT_BACKOFF, chatCompletion, platformAgent } from './http';
import { cancelJudgeRun, judgeRunStatus, launchJudgeRun, pauseJudgeRun, resumeJudgeRun, startJudgeRunner } from './judges';
import { runJudge } from './runner';
import { processGone } from './runner-process';

// Issue 21, points 3 and 8: a judge's answer cannot hang or flood its runner, a cancel ends the runner process, and
// a resume soon after a pause always leaves one live runner. The runners here are real processes (runner-child.ts,
// started as the web app starts them) against a local stand-in that holds its answers until the test lets them go.

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
let lead: Actor;
let studyId: number;
let standIn: StandIn;
const children: ChildProcess[] = [];

beforeAll(async () => {
  standIn = await startStandIn();
  lead = await makeUser('lead', 'lead');
  // Runs go to an endpoint an admin configured, chosen by name; each run its own model (see launch below).
  createJudgeEndpoint(await makeUser('admin', 'admin'), {
    name: 'stand-in',
    baseUrl: standIn.url,
    models: ['huge', 'cancel-in-flight', 'cancel-process', 'cancel-stuck', 'cancel-reused-pid', 'pause-resume'],
  });
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Safety' }).id;
  setStudyCriteria(lead, studyId, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
  const items = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({ id: `it-${i}`, problem: `Problem ${i}`, a: { source: 'x', text: `A${i}` }, b: { source: 'y', text: `B${i}` } }),
  );
  importItems(lead, studyId, writeTemp(dir, 'items.jsonl', items.join('\n')), 'concord');
});
afterEach(() => {
  standIn.releaseHeld();
  standIn.always('ok');
});
afterAll(async () => {
  for (const c of children) if (c.pid && !processGone(c.pid)) c.kill('SIGKILL');
  await standIn.close();
});

/** Each run its own model, so that no run is answered from another's cache. Clarity and overall, both orders: 4 per item. */
const launch = (name: string, extra: Record<string, unknown> = {}) =>
  launchJudgeRun(lead, studyId, { name, endpoint: 'stand-in', model: name, template: PAIRWISE_CRITERION_TEMPLATE, ...extra });

async function until(what: string, cond: () => boolean, ms = 20_000) {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
}

const launchRow = (runId: number) =>
  sql().prepare('SELECT state, owner_pid AS pid, heartbeat_at AS beat FROM judge_launches WHERE run_id = ?').get(runId) as {
    state: string;
    pid: number | null;
    beat: number | null;
  };
const answers = (runId: number) => sql().prepare('SELECT count(*) FROM judge_answers WHERE run_id = ?').pluck().get(runId) as number;
const verdicts = (runId: number) => sql().prepare('SELECT count(*) FROM judge_labels WHERE run_id = ?').pluck().get(runId) as number;

function runner(runId: number) {
  const child = startJudgeRunner(runId);
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { pid: child.pid!, exited };
}

describe('an answer', () => {
  it('longer than the cap is cut before it is read or stored, and the stored text says so', async () => {
    standIn.always('huge');
    const r = launch('huge', { limit: 1 });
    expect((await runJudge(r.runId)).state).toBe('done');
    const raws = sql().prepare('SELECT raw, unreadable FROM judge_answers WHERE run_id = ?').all(r.runId) as {
      raw: string;
      unreadable: number;
    }[];
    expect(raws).toHaveLength(4);
    for (const a of raws) {
      expect(a.raw.length).toBeLessThan(MAX_ANSWER_CHARS + 100);
      expect(a.raw.endsWith(`[Concord: answer cut at ${MAX_ANSWER_CHARS} characters]`)).toBe(true);
      expect(a.unreadable).toBe(1); // the stand-in wrote its verdict after HUGE_ANSWER_CHARS characters: cut off
    }
    expect(HUGE_ANSWER_CHARS).toBeGreaterThan(MAX_ANSWER_CHARS);
  });

  it('in a body that never ends is not read past the body limit: the request fails at once, saying why', async () => {
    standIn.always('endless');
    const agent = await platformAgent(1);
    const started = Date.now();
    const res = await chatCompletion(
      {
        endpoint: standIn.url,
        model: 'endless',
        apiKey: undefined,
        messages: [{ role: 'user', content: 'hi' }],
        temperature: null,
        maxTokens: null,
        seed: null,
      },
      { timeoutMs: 20_000, maxAttempts: 3, ...DEFAULT_BACKOFF },
      agent,
      new AbortController().signal,
    );
    await agent.close();
    expect(res).toMatchObject({ ok: false, attempts: 1, reason: `the response body is larger than ${MAX_RESPONSE_BYTES} bytes` });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('cancel', () => {
  it('stores nothing that arrives after it, even from requests in flight', async () => {
    standIn.hold();
    const r = launch('cancel-in-flight', { limit: 1, concurrency: 4 });
    const going = runJudge(r.runId);
    await until('4 requests in flight', () => standIn.held() === 4);
    await cancelJudgeRun(lead, r.runId); // this process runs it: its runner stops, the process stays
    standIn.releaseHeld();
    expect((await going).state).toBe('cancelled');
    expect(answers(r.runId)).toBe(0);
    expect(verdicts(r.runId)).toBe(0);
  });

  it('ends the runner process before it returns; the answers it was waiting for never become verdicts', async () => {
    standIn.hold();
    const r = launch('cancel-process', { limit: 1, concurrency: 4 });
    const child = runner(r.runId);
    await until('the runner claims the run with 4 requests in flight', () => launchRow(r.runId).pid === child.pid && standIn.held() === 4);
    const s = await cancelJudgeRun(lead, r.runId);
    expect(processGone(child.pid)).toBe(true);
    expect(s.state).toBe('cancelled');
    standIn.releaseHeld();
    await child.exited;
    expect(answers(r.runId)).toBe(0);
    expect(verdicts(r.runId)).toBe(0);
  });

  it('kills a runner that is stuck and deaf to SIGTERM (its heartbeat stopped), as a backtracking pattern left one', async () => {
    const r = launch('cancel-stuck', { limit: 1 });
    // A runner-child process whose event loop never turns: it claimed the run, then stopped beating.
    const stuck = spawn(
      process.execPath,
      [
        '-e',
        "process.on('SIGTERM', () => {}); process.stdout.write('stuck\\n'); for (;;) {}",
        '--',
        '/x/node_modules/.cache/concord-bundle/0123456789abcdef/runner-child.mjs',
        JSON.stringify({ runId: r.runId }),
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(stuck);
    const gone = new Promise<void>((resolve) => stuck.once('exit', () => resolve()));
    await new Promise((resolve) => stuck.stdout.once('data', resolve)); // its SIGTERM handler is in place, its loop spinning
    sql()
      .prepare('UPDATE judge_launches SET owner_pid = ?, owner_host = ?, heartbeat_at = ?, started_at = ? WHERE run_id = ?')
      .run(stuck.pid, os.hostname(), Date.now() - 60_000, Date.now() - 60_000, r.runId);
    await cancelJudgeRun(lead, r.runId);
    expect(processGone(stuck.pid!)).toBe(true);
    await gone;
  }, 30_000);

  it("leaves alone a process that took the claim's pid since: another run's runner is not signalled", async () => {
    const r = launch('cancel-reused-pid', { limit: 1 });
    const other = spawn(
      process.execPath,
      [
        '-e',
        "process.stdout.write('up\\n'); setInterval(() => {}, 1000)",
        '--',
        '/x/node_modules/.cache/concord-bundle/0123456789abcdef/runner-child.mjs',
        '{"runId":999999}',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(other);
    await new Promise((resolve) => other.stdout.once('data', resolve));
    sql()
      .prepare('UPDATE judge_launches SET owner_pid = ?, owner_host = ?, heartbeat_at = ?, started_at = ? WHERE run_id = ?')
      .run(other.pid, os.hostname(), Date.now(), Date.now(), r.runId);
    expect((await cancelJudgeRun(lead, r.runId)).state).toBe('cancelled');
    expect(processGone(other.pid!)).toBe(false);
    other.kill('SIGKILL');
  });
});

describe('resume soon after pause', () => {
  it('while the paused runner still waits for slow answers: that runner goes on, and the run is done', async () => {
    standIn.hold();
    const r = launch('pause-resume', { limit: 2, concurrency: 2 });
    const first = runner(r.runId);
    await until('the runner claims the run with 2 requests in flight', () => launchRow(r.runId).pid === first.pid && standIn.held() === 2);
    pauseJudgeRun(lead, r.runId);
    const paused = Date.now();
    // the runner has read 'paused' once a heartbeat begun after the pause is stored (it reads the state after it)
    await until('the runner sees the pause', () => (launchRow(r.runId).beat ?? 0) > paused);
    // What the web app's resume does: the run is set running and a runner started, which finds the first one alive.
    resumeJudgeRun(lead, r.runId);
    const second = runner(r.runId);
    await second.exited;
    // Only now do the slow answers come: the first runner stores them and must not leave the run without a runner.
    standIn.releaseHeld();
    await until('the run to be done', () => launchRow(r.runId).state !== 'running', 30_000);
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ state: 'done', requests: 8, answered: 8, sent: 8 });
    await first.exited;
    expect(launchRow(r.runId).pid).toBeNull();
  }, 60_000);
});
