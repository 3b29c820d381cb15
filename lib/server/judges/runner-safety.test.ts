import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { HUGE_ANSWER_CHARS, startStandIn, type StandIn } from '@/test/judge-standin';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { MAX_ANSWER_CHARS, MAX_RESPONSE_BYTES } from './answer-limits';
import { DEFAULT_BACKOFF, chatCompletion, platformAgent } from './http';
import { launchJudgeRun } from './judges';
import { runJudge } from './runner';

// Issue 21, point 3: a judge's answer cannot flood its runner.

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
let lead: Actor;
let studyId: number;
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
  lead = await makeUser('lead', 'lead');
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Safety' }).id;
  setStudyCriteria(lead, studyId, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
  const items = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({ id: `it-${i}`, problem: `Problem ${i}`, a: { source: 'x', text: `A${i}` }, b: { source: 'y', text: `B${i}` } }),
  );
  importItems(lead, studyId, writeTemp(dir, 'items.jsonl', items.join('\n')), 'concord');
});
afterEach(() => {
  standIn.always('ok');
});
afterAll(async () => {
  await standIn.close();
});

/** Each run its own model, so that no run is answered from another's cache. Clarity and overall, both orders: 4 per item. */
const launch = (name: string, extra: Record<string, unknown> = {}) =>
  launchJudgeRun(lead, studyId, { name, endpoint: standIn.url, model: name, template: PAIRWISE_CRITERION_TEMPLATE, ...extra });

describe('an answer', () => {
  it('longer than the cap is cut before it is read or stored, and the stored text says so', async () => {
    standIn.always('huge');
    const r = launch('huge', { limit: 1 });
    expect((await runJudge(r.runId)).state).toBe('done');
    const raws = sql().prepare('SELECT raw, unreadable FROM judge_answers WHERE run_id = ?').all(r.runId) as { raw: string; unreadable: number }[];
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
      { endpoint: standIn.url, model: 'endless', apiKey: undefined, messages: [{ role: 'user', content: 'hi' }], temperature: null, maxTokens: null, seed: null },
      { timeoutMs: 20_000, maxAttempts: 3, ...DEFAULT_BACKOFF },
      agent,
      new AbortController().signal,
    );
    await agent.close();
    expect(res).toMatchObject({ ok: false, attempts: 1, reason: `the response body is larger than ${MAX_RESPONSE_BYTES} bytes` });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
