import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { runInBatch } from '@/test/cli-batch';
import { startStandIn, type StandIn } from '@/test/judge-standin';
import { COMMIT_EVERY_MS } from '@/lib/server/judges/runner';
import { processGone } from '@/lib/server/judges/runner-process';

// `judge run`, `judge status` and `judge cancel` as a user runs them: the real CLI in a process of its own, against
// a local OpenAI-compatible stand-in that misbehaves on command, on a temporary database.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-judge-cli-'));
const dbFile = path.join(dir, 'judge.db');
const SECRET = 'sk-test-never-stored-4242';
const env = { ...process.env, CONCORD_DB: dbFile, JUDGE_TEST_KEY: SECRET };
let standIn: StandIn;
let study: string;
const ITEMS = 12;
/** Two catalog criteria and overall, both orders. */
const REQUESTS = ITEMS * 3 * 2;
const promptFile = path.join(dir, 'prompt.json');

type Result = { code: number | null; out: string; err: string };

/** A command that is over before the next line runs: in one `concord batch` process for the file (test/cli-batch.ts). */
function concord(args: string[], input?: string): Result {
  const r = runInBatch(env, args, input);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** The CLI without blocking this process (the stand-in answers from here). */
function concordAsync(args: string[], onSpawn?: (pid: number) => void): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['lib/cli/bin.mjs', ...args], { env });
    if (child.pid) onSpawn?.(child.pid);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const db = () => new Database(dbFile, { readonly: true });
function query<T>(sql: string, ...args: unknown[]): T[] {
  const d = db();
  try {
    return d.prepare(sql).all(...args) as T[];
  } finally {
    d.close();
  }
}
const one = (sql: string, ...args: unknown[]) => Object.values(query<Record<string, number>>(sql, ...args)[0])[0];

/** A run; each test uses its own model name, so the answer cache of another test's run does not answer it. */
const run = (
  name: string,
  extra: string[] = [],
  model = 'stand-in',
  { json = true, endpoint = standIn.url, prompt = promptFile }: { json?: boolean; endpoint?: string; prompt?: string } = {},
) =>
  concordAsync([
    'judge',
    'run',
    '--study',
    study,
    '--name',
    name,
    '--endpoint',
    endpoint,
    '--model',
    model,
    '--prompt',
    prompt,
    ...(json ? ['--json'] : []),
    ...extra,
  ]);

beforeAll(async () => {
  standIn = await startStandIn();
  fs.writeFileSync(promptFile, JSON.stringify(PAIRWISE_CRITERION_TEMPLATE));
  const criteria = path.join(dir, 'criteria.json');
  fs.writeFileSync(
    criteria,
    JSON.stringify([
      { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
      { id: 'correct', name: 'Correctness', level: 'general', description: 'Which reply is mathematically right?' },
    ]),
  );
  study = JSON.parse(
    concord(['study', 'create', '--kind', 'pairwise', '--name', 'Judged', '--criteria', criteria, '--json']).out,
  ).id.toString();
  const items = Array.from({ length: ITEMS }, (_, i) =>
    JSON.stringify({
      id: `it-${i}`,
      problem: `What is ${i} + ${i}?`,
      history: [{ role: 'student', text: `Is it ${i}?` }],
      a: { source: 'model-a', text: `Not quite; try adding ${i} twice.` },
      b: { source: 'model-b', text: `It is ${2 * i}.` },
    }),
  );
  const itemsFile = path.join(dir, 'items.jsonl');
  fs.writeFileSync(itemsFile, `${items.join('\n')}\n`);
  expect(concord(['import', 'items', '--study', study, '--format', 'concord', itemsFile]).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await standIn.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('judge run', () => {
  it('judges every item, criterion and order, stores each answer once, and writes the verdicts as the run’s', async () => {
    const before = standIn.total();
    const r = await run('first', ['--api-key-env', 'JUDGE_TEST_KEY', '--concurrency', '4', '--price-in', '2', '--price-out', '8']);
    expect(r.err).toContain('Starting judge run "first"');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(Object.keys(s)).toEqual([
      'run',
      'items',
      'requests',
      'sent',
      'cached',
      'answered',
      'unreadable',
      'failed',
      'tokensIn',
      'tokensOut',
    ]);
    expect(s).toMatchObject({
      run: 'first',
      items: ITEMS,
      requests: REQUESTS,
      sent: REQUESTS,
      cached: 0,
      answered: REQUESTS,
      unreadable: 0,
      failed: 0,
    });
    expect(s.tokensIn).toBeGreaterThan(0);
    expect(standIn.total() - before).toBe(REQUESTS);
    // the key went to the endpoint, and nowhere into the database
    expect([...standIn.authorizations]).toEqual([`Bearer ${SECRET}`]);
    expect(fs.readFileSync(dbFile).includes(SECRET)).toBe(false);
    const wal = `${dbFile}-wal`;
    if (fs.existsSync(wal)) expect(fs.readFileSync(wal).includes(SECRET)).toBe(false);
    // one verdict per item, criterion and order, mapped back to reply a's side
    const runId = one("SELECT id FROM judge_runs WHERE name = 'first'");
    expect(one('SELECT count(*) FROM judge_labels WHERE run_id = ?', runId)).toBe(REQUESTS);
    expect(one('SELECT count(*) FROM judge_labels WHERE run_id = ? AND swapped = 1', runId)).toBe(REQUESTS / 2);
    // every prompt sent once
    const hashes = query<{ h: string }>('SELECT prompt_hash AS h FROM judge_answers WHERE run_id = ?', runId).map((x) => x.h);
    expect(new Set(hashes).size).toBe(REQUESTS);
    for (const h of hashes) expect(standIn.counts.get(h)).toBe(1);
    // the dashboards read it as an imported run
    const board = concord(['report', 'leaderboard', '--study', study, '--json']);
    expect(board.code).toBe(0);
    expect(board.out).toContain('"first"');
    const status = concord(['judge', 'status', 'first', '--json']);
    expect(JSON.parse(status.out)).toEqual(s);
    expect(concord(['judge', 'status', 'first']).out).toMatch(/done[\s\S]*estimated cost \$/);
  }, 60_000);

  it('sends nothing again for a second run of the same name, and an unchanged prompt under a new name costs nothing', async () => {
    const before = standIn.total();
    const again = await run('first', ['--api-key-env', 'JUDGE_TEST_KEY']);
    expect(again.code).toBe(0);
    expect(again.err).toContain('Resuming judge run "first"');
    expect(JSON.parse(again.out)).toMatchObject({ answered: REQUESTS, sent: REQUESTS, cached: 0 });
    const copy = await run('copy', ['--api-key-env', 'JUDGE_TEST_KEY']);
    expect(copy.code).toBe(0);
    expect(JSON.parse(copy.out)).toMatchObject({ answered: REQUESTS, sent: 0, cached: REQUESTS, tokensIn: 0, tokensOut: 0 });
    expect(standIn.total()).toBe(before);
    // another model is another cache key: sent again
    const other = await run('other-model', ['--limit', '2'], 'another');
    expect(JSON.parse(other.out)).toMatchObject({ items: 2, requests: 12, sent: 12, cached: 0 });
    // a changed configuration under an existing name is refused, not mixed into the run
    const changed = await run('first', [], 'another', { json: false });
    expect(changed.code).toBe(1);
    expect(changed.err).toContain('choose a new name');
  }, 60_000);

  it('retries 429 (after Retry-After), 500, a time-out and a closed connection; stores text without a verdict and truncated JSON as unreadable', async () => {
    standIn.misbehave('429', 1, { retryAfter: '1' });
    standIn.misbehave('500');
    standIn.misbehave('hang');
    standIn.misbehave('close');
    standIn.misbehave('noverdict');
    standIn.misbehave('truncated');
    const start = standIn.arrivals.length;
    const r = await run('rough', ['--concurrency', '1', '--timeout-ms', '400', '--max-attempts', '6', '--limit', '2'], 'rough-model');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s).toMatchObject({ requests: 12, answered: 12, unreadable: 2, failed: 0 });
    // the retry came after the second Retry-After asked for
    expect(standIn.arrivals[start + 1] - standIn.arrivals[start]).toBeGreaterThanOrEqual(1_000);
    const runId = one("SELECT id FROM judge_runs WHERE name = 'rough'");
    const answers = query<{ attempts: number; unreadable: number; raw: string }>(
      'SELECT attempts, unreadable, raw FROM judge_answers WHERE run_id = ? ORDER BY created_at',
      runId,
    );
    // 429, 500, hang and close were all one request's attempts; its fifth attempt answered without a verdict
    expect(answers[0]).toMatchObject({ attempts: 5, unreadable: 1, raw: 'Both replies have their merits and I cannot decide.' });
    expect(answers[1]).toMatchObject({ attempts: 1, unreadable: 1, raw: 'Reasoning done. {"winner": "fir' });
    expect(answers.slice(2).every((a) => a.unreadable === 0 && a.attempts === 1)).toBe(true);
    // unreadable answers are not verdicts
    expect(one('SELECT count(*) FROM judge_labels WHERE run_id = ?', runId)).toBe(10);
  }, 60_000);

  it('opens the circuit after repeated failures, says why, and resumes when called again', async () => {
    standIn.always('500');
    const r = await run('circuit', ['--concurrency', '2', '--max-attempts', '2', '--circuit-after', '3', '--limit', '3'], 'circuit-model');
    standIn.always('ok');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/circuit open: 3 requests in a row failed; the last: HTTP 500/);
    const s = JSON.parse(r.out);
    expect(s.answered).toBe(0);
    expect(s.failed).toBeGreaterThanOrEqual(3);
    const again = await run('circuit', ['--max-attempts', '2', '--circuit-after', '3', '--limit', '3'], 'circuit-model');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ requests: 18, answered: 18, failed: 0 });
  }, 60_000);

  it('refuses a bad template or endpoint with what and where, writing nothing', async () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ name: 'x', user: 'Hello {{nonsense}}', answer: { json: 'winner' } }));
    const runs = one('SELECT count(*) FROM judge_runs');
    const r1 = await run('bad', [], 'm', { json: false, prompt: bad });
    expect(r1.code).toBe(1);
    expect(r1.err).toContain('user: unknown placeholder {{nonsense}}');
    const r2 = await run('bad', [], 'm', { json: false, endpoint: 'file:///etc/passwd' });
    expect(r2.code).toBe(1);
    expect(r2.err).toContain('endpoint: must be an http:// or https:// URL');
    expect(one('SELECT count(*) FROM judge_runs')).toBe(runs);
  }, 60_000);

  it('refuses Concord and system variables and a URL with a query or fragment; runs on a configured endpoint by name', async () => {
    const runs = one('SELECT count(*) FROM judge_runs');
    for (const v of ['AUTH_SECRET', 'CONCORD_DB', 'NODE_OPTIONS', 'PATH']) {
      const r = await run('leak', ['--api-key-env', v], 'm', { json: false });
      expect(r.code, v).toBe(1);
      expect(r.err).toContain(`apiKeyEnv: ${v} cannot hold an endpoint's key`);
    }
    for (const endpoint of [`http://127.0.0.1:${standIn.port}/admin?x=`, `http://127.0.0.1:${standIn.port}/admin#`]) {
      const r = await run('ssrf', [], 'm', { json: false, endpoint });
      expect(r.code, endpoint).toBe(1);
      expect(r.err).toMatch(/endpoint: must not have a (query|fragment)/);
    }
    expect(one('SELECT count(*) FROM judge_runs')).toBe(runs);
    // an endpoint as an admin configures it, then chosen by name: its key variable is used, its models are enforced
    const add = (...args: string[]) => concord(['judge', 'endpoint', 'add', '--name', 'lab', '--models', 'named-model', ...args]);
    expect(add('--url', `${standIn.url}?x=`).err).toContain('baseUrl: must not have a query');
    expect(add('--url', standIn.url, '--key-env', 'AUTH_SECRET').err).toContain("keyEnv: AUTH_SECRET cannot hold an endpoint's key");
    expect(add('--url', standIn.url, '--key-env', 'JUDGE_TEST_KEY').code).toBe(0);
    expect(JSON.parse(concord(['judge', 'endpoint', 'list', '--json']).out)).toMatchObject([
      { name: 'lab', keyEnv: 'JUDGE_TEST_KEY', keySet: true, models: ['named-model'] },
    ]);
    const refused = await run('named', ['--api-key-env', 'JUDGE_TEST_KEY'], 'named-model', { endpoint: 'lab' });
    expect(refused.err).toContain("--api-key-env is the endpoint's own setting");
    expect((await run('named', [], 'other-model', { endpoint: 'lab' })).err).toContain('does not offer the model "other-model"');
    standIn.authorizations.clear();
    const named = await run('named', ['--limit', '1'], 'named-model', { endpoint: 'lab' });
    expect(named.code).toBe(0);
    expect(JSON.parse(named.out)).toMatchObject({ requests: 6, answered: 6 });
    expect([...standIn.authorizations]).toEqual([`Bearer ${SECRET}`]);
  }, 120_000);

  it('loses nothing answered and sends nothing answered twice when the runner is killed with -9, then resumes', async () => {
    standIn.setDelay(25);
    const before = new Map(standIn.counts);
    const first = run('killed', ['--concurrency', '4'], 'kill-model');
    // wait until some answers are stored, then kill the process that runs the judge (not just the wrapper)
    let pid: number | undefined;
    for (let i = 0; i < 400 && !pid; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const rows = query<{ pid: number | null; n: number }>(
        "SELECT l.owner_pid AS pid, (SELECT count(*) FROM judge_answers a WHERE a.run_id = l.run_id) AS n FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = 'killed'",
      );
      if (rows[0]?.pid && rows[0].n >= 10) pid = rows[0].pid;
    }
    expect(pid, 'the judge process stored ten answers within 10 s').toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    expect((await first).code).not.toBe(0);
    const runId = one("SELECT id FROM judge_runs WHERE name = 'killed'");
    const stored = query<{ h: string }>('SELECT prompt_hash AS h FROM judge_answers WHERE run_id = ?', runId).map((x) => x.h);
    expect(stored.length).toBeGreaterThanOrEqual(10);
    expect(stored.length).toBeLessThan(REQUESTS);
    expect(one('SELECT count(*) FROM judge_labels WHERE run_id = ?', runId)).toBe(stored.length);
    const sentBeforeResume = new Map(standIn.counts);
    standIn.setDelay(0);

    const again = await run('killed', [], 'kill-model');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ requests: REQUESTS, answered: REQUESTS });
    // nothing stored before the kill was sent again by the resumed run
    for (const h of stored) expect(standIn.counts.get(h), h).toBe(sentBeforeResume.get(h));
    // every answer is there once, each the first the run stored for its request
    expect(one('SELECT count(*) FROM judge_answers WHERE run_id = ?', runId)).toBe(REQUESTS);
    expect(one('SELECT count(*) FROM judge_labels WHERE run_id = ?', runId)).toBe(REQUESTS);
    // every prompt of this run was sent at least once, and no answered one more than the kill can explain: only
    // requests in flight at the kill (at most the concurrency, 4) and answers that arrived within the last commit
    // window, not yet stored (at most 4 per 25 ms of the stand-in's delay), went out twice
    let twice = 0;
    for (const h of query<{ h: string }>('SELECT prompt_hash AS h FROM judge_answers WHERE run_id = ?', runId).map((x) => x.h)) {
      // the prompts are those of 'first' (same template and items), sent once then; the model differs
      const n = (standIn.counts.get(h) ?? 0) - (before.get(h) ?? 0);
      if (n > 1) twice++;
    }
    expect(twice).toBeLessThanOrEqual(4 + Math.ceil((4 * COMMIT_EVERY_MS) / 25));
  }, 60_000);

  it('cancels a run from another process; a cancelled run cannot be resumed', async () => {
    standIn.setDelay(200);
    const going = run('to-cancel', ['--concurrency', '1'], 'slow', { json: false });
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (one("SELECT count(*) FROM judge_answers a JOIN judge_runs r ON r.id = a.run_id WHERE r.name = 'to-cancel'") > 0) break;
    }
    const [{ pid }] = query<{ pid: number }>(
      "SELECT l.owner_pid AS pid FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = 'to-cancel'",
    );
    const c = concord(['judge', 'cancel', 'to-cancel']);
    expect(c.code).toBe(0);
    expect(c.out).toContain('cancelled');
    // `judge cancel` returns once the process running the judge has ended (it stops on the SIGTERM it is sent)
    expect(processGone(pid)).toBe(true);
    const r = await going;
    standIn.setDelay(0);
    expect(r.code).toBe(1);
    expect(r.err).toContain('the run is cancelled');
    const s = JSON.parse(concord(['judge', 'status', 'to-cancel', '--json']).out);
    expect(s.answered).toBeLessThan(REQUESTS);
    const again = await run('to-cancel', [], 'slow', { json: false });
    expect(again.code).toBe(1);
    expect(again.err).toContain('was cancelled');
  }, 60_000);
});
