import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { startStandIn, type StandIn } from '@/test/judge-standin';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { importItems } from '../imports/imports';
import { createStudy, setStudyCriteria } from '../studies/studies';
import { cliActor } from '../system/system';
import { createJudgeEndpoint, deleteJudgeEndpoint, judgeEndpointChoices, listJudgeEndpoints, updateJudgeEndpoint } from './endpoints';
import { cancelJudgeRun, judgeRunStatus, launchJudgeRun, launchJudgeRunAtUrl, startJudgeRunner, unreadableJudgeAnswers } from './judges';
import { KEY_REMOVED } from './redact';
import { runJudge } from './runner';

/*
 * Issue 21: a lead must not be able to make the judge runner send AUTH_SECRET (or any other variable of the
 * server's) to a listener of theirs, nor read a key back through what an endpoint answers, nor reach an arbitrary
 * path of a loopback service. Real listeners on loopback, a real runner process, a real database file.
 */

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
const AUTH_SECRET = 'auth-secret-that-signs-every-session-3f9a';
const KEY = 'sk-judge-key-7c1e-of-the-admins-endpoint';
let admin: Actor, lead: Actor;
let studyId: number;
let listener: StandIn;

const fieldErrors = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, fields: e.fieldErrors ?? {} };
    throw e;
  }
  throw new Error('expected a refusal');
};

beforeAll(async () => {
  process.env.AUTH_SECRET = AUTH_SECRET;
  process.env.CONCORD_SOME_SETTING = 'concord-setting-value';
  process.env.JUDGE_TEST_KEY = KEY;
  listener = await startStandIn();
  admin = await makeUser('admin', 'admin');
  lead = await makeUser('lead', 'lead');
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Endpoints' }).id;
  setStudyCriteria(lead, studyId, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
  const items = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({ id: `it-${i}`, problem: `Problem ${i}`, a: { source: 'x', text: `A${i}` }, b: { source: 'y', text: `B${i}` } }),
  );
  importItems(lead, studyId, writeTemp(dir, 'items.jsonl', items.join('\n')), 'concord');
  createJudgeEndpoint(admin, {
    name: 'lab',
    baseUrl: listener.url,
    keyEnv: 'JUDGE_TEST_KEY',
    models: 'm\nm-2',
    priceIn: '1.5',
    priceOut: '',
  });
});
afterAll(() => listener.close());

const launch = (name: string, extra: Record<string, unknown> = {}) =>
  launchJudgeRun(lead, studyId, { name, endpoint: 'lab', model: 'm', template: PAIRWISE_CRITERION_TEMPLATE, bothOrders: false, ...extra });

describe('a lead cannot make the runner send a variable of the server', () => {
  it('refuses a launch naming a URL or a key variable, however it is spelled, and nothing reaches the listener', () => {
    const before = listener.total();
    // the attack of issue 21: AUTH_SECRET sent to a listener of the lead's
    for (const forged of [
      { endpoint: listener.url, apiKeyEnv: 'AUTH_SECRET' },
      { endpoint: 'lab', apiKeyEnv: 'AUTH_SECRET' },
      { endpoint: 'lab', apiKeyEnv: 'CONCORD_SOME_SETTING' },
      { endpoint: listener.url },
    ]) {
      const r = fieldErrors(() => launch(`forged-${Object.values(forged).join('-')}`, forged));
      expect(r.code, JSON.stringify(forged)).toBe('invalid');
    }
    expect(fieldErrors(() => launch('no-such', { endpoint: 'nope' })).fields).toEqual({
      endpoint: 'Choose an endpoint an admin configured.',
    });
    expect(fieldErrors(() => launch('bad-model', { model: 'gpt-x' })).fields.model).toMatch(/^Choose one of the models of lab: m, m-2/);
    // the direct URL is the command line's, not a lead's nor a web admin's
    for (const who of [lead, admin])
      expect(
        codeOf(() =>
          launchJudgeRunAtUrl(who, studyId, {
            name: 'direct',
            endpoint: listener.url,
            apiKeyEnv: 'AUTH_SECRET',
            model: 'm',
            template: PAIRWISE_CRITERION_TEMPLATE,
          }),
        ),
      ).toBe('forbidden');
    expect(sql().prepare('SELECT count(*) FROM judge_launches').pluck().get()).toBe(0);
    expect(listener.total()).toBe(before);
  });

  it('refuses AUTH_*, CONCORD_*, NODE_* and system variables as an endpoint key, at save and on the command line', () => {
    for (const keyEnv of [
      'AUTH_SECRET',
      'auth_secret',
      'NEXTAUTH_SECRET',
      'CONCORD_DB',
      'CONCORD_JUDGE_API_KEY',
      'NODE_OPTIONS',
      'PATH',
      'HOME',
      'LD_PRELOAD',
      'sk-abc',
    ])
      expect(
        fieldErrors(() => createJudgeEndpoint(admin, { name: `k-${keyEnv}`, baseUrl: listener.url, keyEnv, models: 'm' })).fields,
        keyEnv,
      ).toHaveProperty('keyEnv');
    expect(
      fieldErrors(() => createJudgeEndpoint(admin, { name: 'a', baseUrl: listener.url, keyEnv: 'AUTH_SECRET', models: 'm' })).fields.keyEnv,
    ).toMatch(/AUTH_SECRET cannot hold an endpoint's key: it belongs to sign-in/);
    expect(
      fieldErrors(() =>
        launchJudgeRunAtUrl(cliActor(), studyId, {
          name: 'cli',
          endpoint: listener.url,
          apiKeyEnv: 'AUTH_SECRET',
          model: 'm',
          template: PAIRWISE_CRITERION_TEMPLATE,
        }),
      ).fields,
    ).toHaveProperty('apiKeyEnv');
    expect(listJudgeEndpoints(admin).map((e) => e.name)).toEqual(['lab']);
  });

  it("starts the runner with a minimal environment: the endpoint's key under one name, no AUTH_SECRET, nothing of the server's", async () => {
    listener.always('hang'); // the runner waits on its request: alive long enough to be looked at
    try {
      const r = launch('env-check', { concurrency: 1, timeoutMs: 60_000 });
      startJudgeRunner(r.runId);
      // the runner has claimed the run and sent its first request
      let pid: number | null = null;
      for (let i = 0; i < 300 && (pid === null || listener.authorizations.size === 0); i++) {
        pid = sql().prepare('SELECT owner_pid FROM judge_launches WHERE run_id = ?').pluck().get(r.runId) as number | null;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(pid).not.toBeNull();
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      const names = environ.map((kv) => kv.slice(0, kv.indexOf('=')));
      expect(names).not.toContain('AUTH_SECRET');
      expect(names).not.toContain('CONCORD_SOME_SETTING');
      expect(names).not.toContain('JUDGE_TEST_KEY');
      expect(environ.join('\n')).not.toContain(AUTH_SECRET);
      expect(environ).toContain(`CONCORD_JUDGE_API_KEY=${KEY}`);
      expect(
        names.every((n) => ['PATH', 'NODE_ENV', 'TZ', 'TMPDIR', 'CONCORD_DB', 'CONCORD_MIGRATIONS', 'CONCORD_JUDGE_API_KEY'].includes(n)),
      ).toBe(true);
      // the endpoint got the admin's key, and only it
      expect([...listener.authorizations]).toEqual([`Bearer ${KEY}`]);
      cancelJudgeRun(lead, r.runId);
      for (let i = 0; i < 100 && sql().prepare('SELECT owner_pid FROM judge_launches WHERE run_id = ?').pluck().get(r.runId) !== null; i++)
        await new Promise((res) => setTimeout(res, 100));
    } finally {
      listener.always('ok');
    }
  }, 60_000);
});

describe('a runner the server starts for a run that names its own variable', () => {
  it('is given no key unless the variable is on the admin list, and stops saying so', async () => {
    process.env.UNLISTED_KEY = 'unlisted-key-value-91d0';
    // a run the command line pointed at a URL and a variable of its own (or a lead before issue 21), resumed from the web
    const r = launchJudgeRunAtUrl(cliActor(), studyId, {
      name: 'unlisted',
      endpoint: listener.url,
      apiKeyEnv: 'UNLISTED_KEY',
      model: 'm',
      template: PAIRWISE_CRITERION_TEMPLATE,
      bothOrders: false,
    });
    const before = listener.total();
    startJudgeRunner(r.runId);
    for (let i = 0; i < 300 && judgeRunStatus(lead, r.runId).state === 'running'; i++) await new Promise((res) => setTimeout(res, 100));
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({
      state: 'circuit_open',
      reason: 'the environment variable UNLISTED_KEY is not set in the process running the judge',
    });
    expect(listener.total()).toBe(before);
    expect([...listener.authorizations].join()).not.toContain('unlisted-key-value');
  }, 60_000);
});

describe('what an endpoint answers is stored without the key', () => {
  it('removes the key from a failure reason that quotes the Authorization header, and from an answer that does', async () => {
    listener.misbehave('echo-key-answer', 1);
    listener.always('echo-key');
    try {
      const r = launch('echo', { circuitAfter: 2, maxAttempts: 1, concurrency: 1 });
      expect((await runJudge(r.runId)).state).toBe('circuit_open');
      const status = judgeRunStatus(lead, r.runId);
      expect(status.reason).toContain(`Incorrect API key provided in "Bearer ${KEY_REMOVED}"`);
      const raws = sql().prepare('SELECT raw FROM judge_answers WHERE run_id = ?').pluck().all(r.runId) as string[];
      expect(raws).toEqual([`You sent Bearer ${KEY_REMOVED}. {"winner": "tie"}`]);
      const cached = sql().prepare('SELECT raw FROM judge_answer_cache').pluck().all() as string[];
      const stored = JSON.stringify([status, raws, cached, unreadableJudgeAnswers(lead, r.runId)]);
      expect(stored).not.toContain(KEY);
      expect(stored).not.toContain(KEY.slice(0, 12));
      // text stored before this fix (or by a runner that did not redact) is shown without the key too
      sql().prepare('UPDATE judge_launches SET reason = ? WHERE run_id = ?').run(`HTTP 401: bad key Bearer ${KEY}`, r.runId);
      expect(judgeRunStatus(lead, r.runId).reason).toBe(`HTTP 401: bad key Bearer ${KEY_REMOVED}`);
    } finally {
      listener.always('ok');
    }
  });
});

describe('an endpoint cannot reach any path of a service', () => {
  it('refuses a base URL with a query or a fragment (even empty) or credentials, at save, on edit and on the command line', () => {
    const base = `http://127.0.0.1:${listener.port}/admin`;
    for (const baseUrl of [
      `${base}?x=`,
      `${base}?`,
      `${base}#`,
      `${base}#x`,
      `http://u:p@127.0.0.1:${listener.port}/v1`,
      'file:///etc/passwd',
    ])
      expect(fieldErrors(() => createJudgeEndpoint(admin, { name: 'ssrf', baseUrl, models: 'm' })).fields, baseUrl).toHaveProperty(
        'baseUrl',
      );
    expect(fieldErrors(() => createJudgeEndpoint(admin, { name: 'ssrf', baseUrl: `${base}?x=`, models: 'm' })).fields.baseUrl).toMatch(
      /must not have a query/,
    );
    const lab = listJudgeEndpoints(admin).find((e) => e.name === 'lab')!;
    expect(fieldErrors(() => updateJudgeEndpoint(admin, lab.id, { name: 'lab', baseUrl: `${base}#`, models: 'm' })).fields).toHaveProperty(
      'baseUrl',
    );
    expect(
      fieldErrors(() =>
        launchJudgeRunAtUrl(cliActor(), studyId, {
          name: 'cli-ssrf',
          endpoint: `${base}?x=`,
          model: 'm',
          template: PAIRWISE_CRITERION_TEMPLATE,
        }),
      ).fields,
    ).toHaveProperty('endpoint');
    // a loopback address is allowed: a lab's own vLLM, configured by an admin
    expect(listJudgeEndpoints(admin).find((e) => e.name === 'lab')!.baseUrl).toBe(listener.url);
  });

  it('records an answer that is not a chat completion by its status, type and size, without its body', async () => {
    listener.always('html');
    try {
      const r = launch('html', { circuitAfter: 1, maxAttempts: 1, concurrency: 1 });
      expect((await runJudge(r.runId)).state).toBe('circuit_open');
      const reason = judgeRunStatus(lead, r.runId).reason!;
      expect(reason).toMatch(/the endpoint's answer is not a chat completion \(HTTP 200, text\/html, \d+ bytes\)/);
      expect(reason).not.toMatch(/admin console|hunter2|<html/);
    } finally {
      listener.always('ok');
    }
  });
});

describe("endpoints are an admin's", () => {
  it('lists, edits and removes for admins only, audited; leads see names, models and prices only', () => {
    expect(codeOf(() => listJudgeEndpoints(lead))).toBe('forbidden');
    expect(codeOf(() => createJudgeEndpoint(lead, { name: 'mine', baseUrl: listener.url, models: 'm' }))).toBe('forbidden');
    expect(judgeEndpointChoices(lead)).toEqual([{ name: 'lab', models: ['m', 'm-2'], priceIn: 1.5, priceOut: null }]);
    expect(JSON.stringify(judgeEndpointChoices(lead))).not.toMatch(/JUDGE_TEST_KEY|127\.0\.0\.1/);
    const e = createJudgeEndpoint(admin, {
      name: 'spare',
      baseUrl: 'https://api.example.com/v1',
      models: 'a, b',
      keyEnv: 'OPENAI_API_KEY',
    });
    expect(e).toMatchObject({ models: ['a', 'b'], keyEnv: 'OPENAI_API_KEY', keySet: false });
    expect(fieldErrors(() => createJudgeEndpoint(admin, { name: 'spare', baseUrl: listener.url, models: 'm' })).fields).toEqual({
      name: 'An endpoint of this name exists.',
    });
    expect(codeOf(() => updateJudgeEndpoint(lead, e.id, { name: 'spare', baseUrl: listener.url, models: 'm' }))).toBe('forbidden');
    expect(updateJudgeEndpoint(admin, e.id, { name: 'spare-2', baseUrl: 'https://api.example.com/v1', models: 'c' }).models).toEqual(['c']);
    expect(codeOf(() => deleteJudgeEndpoint(lead, e.id))).toBe('forbidden');
    deleteJudgeEndpoint(admin, e.id);
    const actions = sql().prepare("SELECT action FROM audit_log WHERE action LIKE 'judge_endpoint.%' ORDER BY id").pluck().all();
    expect(actions).toEqual(['judge_endpoint.create', 'judge_endpoint.create', 'judge_endpoint.update', 'judge_endpoint.delete']);
    // an endpoint an unfinished run uses stays until the run is over
    const lab = listJudgeEndpoints(admin).find((x) => x.name === 'lab')!;
    const r = launch('holds-lab');
    expect(codeOf(() => deleteJudgeEndpoint(admin, lab.id))).toBe('conflict');
    cancelJudgeRun(lead, r.runId);
  });

  it("takes effect on a run's next sitting: a model the admin no longer allows is not sent", async () => {
    const lab = listJudgeEndpoints(admin).find((x) => x.name === 'lab')!;
    const settings = { name: 'lab', baseUrl: listener.url, keyEnv: 'JUDGE_TEST_KEY', priceIn: '1.5' };
    const r = launch('dropped-model', { model: 'm-2' });
    updateJudgeEndpoint(admin, lab.id, { ...settings, models: 'm' });
    try {
      const before = listener.total();
      expect(await runJudge(r.runId)).toEqual({ state: 'circuit_open', reason: 'the endpoint lab no longer offers the model m-2' });
      expect(listener.total()).toBe(before);
    } finally {
      updateJudgeEndpoint(admin, lab.id, { ...settings, models: 'm\nm-2' });
    }
  });
});
