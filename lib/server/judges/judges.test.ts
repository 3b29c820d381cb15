import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { LEAKAGE_TEMPLATE, PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { startStandIn, type StandIn } from '@/test/judge-standin';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import { importItems } from '../imports/imports';
import { createStudy, setStudyCriteria } from '../studies/studies';
import {
  cancelJudgeRun,
  judgeRunStatus,
  launchJudgeRun,
  listJudgeTemplates,
  listStudyJudgeRuns,
  pauseJudgeRun,
  previewJudgeTemplate,
  resumeAbandonedJudgeRuns,
  resumeJudgeRun,
  saveJudgeTemplate,
  unreadableJudgeAnswers,
} from './judges';
import { parseTemplate, planRequests } from './plan';
import { PLAN_PAGE, countRequests, runJudge } from './runner';
import { createJudgeEndpoint } from './endpoints';

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
let lead: Actor, annotator: Actor;
let studyId: number;
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann');
  // Runs go to an endpoint an admin configured, chosen by name (issue 21).
  createJudgeEndpoint(await makeUser('admin', 'admin'), {
    name: 'stand-in',
    baseUrl: standIn.url,
    models: ['m', 'pause-model', 'locked-model', 'paged-m', 'rubric-m'],
  });
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Runs' }).id;
  setStudyCriteria(lead, studyId, [
    { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?', aspects: ['Short sentences'] },
  ]);
  const items = Array.from({ length: 5 }, (_, i) =>
    JSON.stringify({
      id: `it-${i}`,
      problem: `Problem ${i}`,
      history: [{ role: 'student', text: `I think ${i}` }],
      a: { source: 'secret-model-a', text: `A${i}` },
      b: { source: 'secret-model-b', text: `B${i}` },
    }),
  );
  importItems(lead, studyId, writeTemp(dir, 'items.jsonl', items.join('\n')), 'concord');
});
afterAll(() => standIn.close());

const launch = (name: string, extra: Record<string, unknown> = {}) =>
  launchJudgeRun(lead, studyId, { name, endpoint: 'stand-in', model: 'm', template: PAIRWISE_CRITERION_TEMPLATE, ...extra });

describe('templates', () => {
  it('are versioned: an edit is a new version, an unchanged save is not, and a run records its version', () => {
    const v1 = saveJudgeTemplate(lead, studyId, PAIRWISE_CRITERION_TEMPLATE);
    expect(saveJudgeTemplate(lead, studyId, JSON.stringify(PAIRWISE_CRITERION_TEMPLATE)).version).toBe(v1.version);
    const v2 = saveJudgeTemplate(lead, studyId, { ...PAIRWISE_CRITERION_TEMPLATE, system: 'Be brief.' });
    expect(v2.version).toBe(v1.version + 1);
    expect(listJudgeTemplates(lead, studyId).map((t) => t.version)).toEqual([2, 1]);
    expect(() => sql().prepare("UPDATE judge_templates SET body = '{}' WHERE id = ?").run(v1.id)).toThrow(/never changes/);
    const r = launch('versioned', { template: { ...PAIRWISE_CRITERION_TEMPLATE, system: 'Be brief.' } });
    expect(sql().prepare('SELECT template_id FROM judge_launches WHERE run_id = ?').pluck().get(r.runId)).toBe(v2.id);
    expect(judgeRunStatus(lead, r.runId).template).toEqual({ name: 'pairwise-criterion', version: 2 });
  });

  it('previews the prompt of a chosen item with its placeholders filled and no source in it', () => {
    const p = previewJudgeTemplate(lead, studyId, PAIRWISE_CRITERION_TEMPLATE, 'it-3');
    expect(p).toMatchObject({ item: 'it-3', criterion: 'clarity', requestsPerItem: 2 });
    const user = p.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('Problem 3');
    expect(user).toContain('Student: I think 3');
    expect(user).toContain('Candidate reply 1:\nA3');
    expect(user).toContain('- Short sentences');
    expect(JSON.stringify(p)).not.toMatch(/secret-model|\{\{/);
    expect(codeOf(() => previewJudgeTemplate(lead, studyId, PAIRWISE_CRITERION_TEMPLATE, 'nope'))).toBe('not_found');
    expect(codeOf(() => previewJudgeTemplate(lead, studyId, '{"name": "x", "user": "{{bad}}", "answer": {"json": "k"}}'))).toBe('invalid');
  });

  it('are for leads and admins only, as are runs, their status and their raw answers', () => {
    const r = launch('guarded');
    expect(codeOf(() => saveJudgeTemplate(annotator, studyId, PAIRWISE_CRITERION_TEMPLATE))).toBe('forbidden');
    expect(codeOf(() => listJudgeTemplates(annotator, studyId))).toBe('forbidden');
    expect(codeOf(() => previewJudgeTemplate(annotator, studyId, PAIRWISE_CRITERION_TEMPLATE))).toBe('forbidden');
    expect(
      codeOf(() =>
        launchJudgeRun(annotator, studyId, { name: 'x', endpoint: 'stand-in', model: 'm', template: PAIRWISE_CRITERION_TEMPLATE }),
      ),
    ).toBe('forbidden');
    for (const f of [judgeRunStatus, pauseJudgeRun, resumeJudgeRun, cancelJudgeRun, unreadableJudgeAnswers])
      expect(codeOf(() => f(annotator, r.runId))).toBe('forbidden');
    expect(codeOf(() => listStudyJudgeRuns(annotator, studyId))).toBe('forbidden');
  });
});

describe('a run launched from the web app', () => {
  it('is run by a detached runner process that the server start resumes when it is gone, then dashboards read it', async () => {
    const r = launch('from-web');
    // The run is 'running' with no live runner (as after a crash of the machine or of its runner).
    sql()
      .prepare('UPDATE judge_launches SET owner_pid = 999999, owner_host = ?, heartbeat_at = ? WHERE run_id = ?')
      .run(os.hostname(), Date.now(), r.runId);
    expect(judgeRunStatus(lead, r.runId).stalled).toBe(false); // never started: not stalled, waiting for its runner
    sql()
      .prepare('UPDATE judge_launches SET started_at = ?, heartbeat_at = ? WHERE run_id = ?')
      .run(Date.now() - 60_000, Date.now() - 60_000, r.runId);
    expect(judgeRunStatus(lead, r.runId).stalled).toBe(true);
    // What the server does at start: the dead runner's run gets a new runner process.
    const resumed = resumeAbandonedJudgeRuns(getDb());
    expect(resumed).toContain(r.runId);
    for (let i = 0; i < 300 && judgeRunStatus(lead, r.runId).state === 'running'; i++) await new Promise((res) => setTimeout(res, 100));
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ state: 'done', requests: 20, answered: 20 });
    // A run whose runner is alive is left alone.
    const live = launch('live');
    sql()
      .prepare('UPDATE judge_launches SET owner_pid = ?, owner_host = ?, heartbeat_at = ? WHERE run_id = ?')
      .run(process.pid, os.hostname(), Date.now(), live.runId);
    expect(resumeAbandonedJudgeRuns(getDb(), () => {})).not.toContain(live.runId);
    await cancelJudgeRun(lead, live.runId);
    // the verdicts are the run's, read by the alignment dashboard like an imported run's
    const listed = listStudyJudgeRuns(lead, studyId).find((x) => x.name === 'from-web')!;
    expect(listed).toMatchObject({ origin: 'launched', labels: 20 });
    const report = await alignmentReport(lead, studyId, 'alignment', { judge: 'from-web' });
    expect(report.judge).toBe('from-web');
  }, 60_000);

  it('pauses, resumes and cancels; the runner stops dispatching when paused and finishes after resume', async () => {
    standIn.setDelay(100);
    const r = launch('paused', { concurrency: 1, model: 'pause-model' });
    const going = runJudge(r.runId);
    await new Promise((res) => setTimeout(res, 400));
    pauseJudgeRun(lead, r.runId);
    const outcome = await going;
    expect(outcome.state).toBe('paused');
    const answered = judgeRunStatus(lead, r.runId).answered;
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(20);
    expect(codeOf(() => pauseJudgeRun(lead, r.runId))).toBe('conflict');
    standIn.setDelay(0);
    resumeJudgeRun(lead, r.runId);
    expect((await runJudge(r.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ answered: 20, sent: 20 });
    expect(codeOf(() => cancelJudgeRun(lead, r.runId))).toBe('conflict');
  }, 60_000);
});

describe('a run while another writer holds the database', () => {
  it('keeps its answers and finishes when the lock outlasts the busy time-out, storing each answer once', async () => {
    const Database = (await import('better-sqlite3')).default;
    standIn.setDelay(50);
    const r = launch('locked', { concurrency: 2, model: 'locked-model' });
    const going = runJudge(r.runId);
    await new Promise((res) => setTimeout(res, 150)); // dispatching
    const other = new Database(sql().name);
    other.exec('BEGIN IMMEDIATE'); // held past the runner's 5 s busy time-out
    await new Promise((res) => setTimeout(res, 5_500));
    other.exec('COMMIT');
    other.close();
    standIn.setDelay(0);
    expect((await going).state).toBe('done');
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ requests: 20, answered: 20, sent: 20 });
  }, 60_000);
});

describe('a run over more items than one page of its plan', () => {
  it('reads the plan page by page: a resumed run with more items sends exactly the requests without an answer, each once', async () => {
    const big = createStudy(lead, { kind: 'pairwise', name: 'Paged run' }).id;
    setStudyCriteria(lead, big, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
    const n = PLAN_PAGE + 44; // two pages, the second part-answered at first
    const first = PLAN_PAGE + 10;
    const items = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: `p-${i}`, problem: `Paged ${i}`, a: { source: 'x', text: `a${i}` }, b: { source: 'y', text: `b${i}` } }),
    );
    importItems(lead, big, writeTemp(dir, 'paged.jsonl', items.join('\n')), 'concord');
    // clarity and overall, one order: still more than one request per item, at half the stand-in's round trips
    const perItem = 2;
    const before = standIn.total();
    const go = (limit?: number) =>
      launchJudgeRun(lead, big, {
        name: 'paged',
        endpoint: 'stand-in',
        model: 'paged-m',
        template: PAIRWISE_CRITERION_TEMPLATE,
        concurrency: 8,
        bothOrders: false,
        ...(limit ? { limit } : {}),
      });
    const r = go(first);
    // the status counts the plan from the launch on, before a runner has claimed the run
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ state: 'running', requests: first * perItem, answered: 0 });
    expect((await runJudge(r.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ requests: first * perItem, answered: first * perItem });
    expect(standIn.total() - before).toBe(first * perItem);
    // the same run over every item: only the items past the first run's are sent
    expect(go().resumed).toBe(true);
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ requests: n * perItem, answered: first * perItem });
    expect((await runJudge(r.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, r.runId)).toMatchObject({ requests: n * perItem, answered: n * perItem, sent: n * perItem });
    expect(standIn.total() - before).toBe(n * perItem);
    const perPrompt = sql().prepare('SELECT prompt_hash FROM judge_answers WHERE run_id = ?').pluck().all(r.runId) as string[];
    expect(perPrompt.every((h) => standIn.counts.get(h) === 1)).toBe(true);
    // in position order: the first run judged the first items
    const judged = sql()
      .prepare(
        'SELECT count(DISTINCT a.item_id) FROM judge_answers a JOIN items i ON i.id = a.item_id WHERE a.run_id = ? AND i.position <= (SELECT position FROM items WHERE study_id = ? AND external_id = ?)',
      )
      .pluck()
      .get(r.runId, big, `p-${first - 1}`);
    expect(judged).toBe(first);
  }, 120_000);
});

describe('the size of a run', () => {
  it('counted by principles in SQL, equals the plan item by item, for every limit, sampling and order', () => {
    const id = createStudy(lead, { kind: 'pairwise', name: 'Principles' }).id;
    setStudyCriteria(lead, id, [
      { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which is clearer?' },
      { id: 'practice', name: 'Practice', level: 'principle', principle: 'Practice', description: 'Which gives practice?' },
      { id: 'tone', name: 'Tone', level: 'principle', principle: 'Feedback', description: 'Which is kinder?' },
    ]);
    const principles = [undefined, ['Practice'], [], ['Practice', 'Feedback'], ['Feedback'], undefined, ['Practice']];
    const items = principles.map((p, i) =>
      JSON.stringify({
        id: `pr-${i}`,
        problem: `P${i}`,
        a: { source: 'x', text: `a${i}` },
        b: { source: 'y', text: `b${i}` },
        ...(p ? { principles: p } : {}),
      }),
    );
    importItems(lead, id, writeTemp(dir, 'principles.jsonl', items.join('\n')), 'concord');
    const study = findStudy(getDb(), id)!;
    const rows = sql().prepare('SELECT id, payload, external_id AS externalId FROM items WHERE study_id = ? ORDER BY position').all(id) as {
      id: number;
      payload: string;
      externalId: string;
    }[];
    const oneByOne = parseTemplate(PAIRWISE_CRITERION_TEMPLATE);
    const together = parseTemplate({ ...PAIRWISE_CRITERION_TEMPLATE, name: 'together', together: true, answer: { json: 'verdicts' } });
    for (const template of [oneByOne, together])
      for (const limit of [null, 1, 4, 100])
        for (const opts of [
          { samples: 1, bothOrders: false },
          { samples: 3, bothOrders: true },
        ]) {
          const planned = [...planRequests(study, template, rows.slice(0, limit ?? rows.length), opts)].length;
          expect(countRequests(getDb(), study, template, limit, opts), `${template.name} ${limit} ${JSON.stringify(opts)}`).toBe(planned);
        }
    // clarity and overall on all 7 items; practice on the two without principles and the three that name it; tone on
    // the two without principles and the two that name Feedback
    expect(countRequests(getDb(), study, oneByOne, null, { samples: 1, bothOrders: false })).toBe(7 * 2 + 5 + 4);
  });
});

describe('a run on a rubric study', () => {
  it('sends each item once per dimension with its reply, reads the dimension labels, and stores every sample as codes', async () => {
    const rubric = createStudy(lead, { kind: 'rubric', name: 'Rubric runs', dimensions: 'ok-reject' }).id;
    const items = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        id: `r-${i}`,
        problem: `Solve ${i}`,
        history: [{ role: 'student', text: `help ${i}` }],
        reply: { source: 'tutor-x', text: `The answer is ${i}.` },
      }),
    );
    importItems(lead, rubric, writeTemp(dir, 'rubric.jsonl', items.join('\n')), 'concord');
    const p = previewJudgeTemplate(lead, rubric, LEAKAGE_TEMPLATE, 'r-1');
    expect(p).toMatchObject({ item: 'r-1', criterion: 'leakage', requestsPerItem: 1 });
    expect(p.messages.find((m) => m.role === 'user')!.content).toContain('Tutor reply:\nThe answer is 1.');
    // The stand-in answers {"winner": …}: a leakage template reading "decision" finds nothing — unreadable, not guessed.
    const unread = launchJudgeRun(lead, rubric, {
      name: 'leak',
      endpoint: 'stand-in',
      model: 'rubric-m',
      template: LEAKAGE_TEMPLATE,
      samples: 2,
    });
    expect((await runJudge(unread.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, unread.runId)).toMatchObject({ requests: 6, answered: 6, unreadable: 6 });
    expect(sql().prepare('SELECT count(*) FROM rubric_judge_labels WHERE run_id = ?').pluck().get(unread.runId)).toBe(0);
    // A template whose pattern reads a label of the dimension: every sample is a verdict, stored as codes.
    const okTemplate = {
      name: 'ok-word',
      criteria: ['helpful'],
      user: 'Reply: {{reply}}\nLabels: {{labels}}',
      answer: { pattern: '(first|second|tie)', map: { first: 'OK', second: 'REJECT', tie: 'OK' } },
    };
    const read = launchJudgeRun(lead, rubric, {
      name: 'helpful',
      endpoint: 'stand-in',
      model: 'rubric-m',
      template: okTemplate,
      samples: 2,
      bothOrders: true,
    });
    expect((await runJudge(read.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, read.runId)).toMatchObject({ requests: 6, answered: 6, unreadable: 0 });
    const rows = sql()
      .prepare('SELECT dimension, sample, label FROM rubric_judge_labels WHERE run_id = ? ORDER BY item_id, sample')
      .all(read.runId) as { dimension: number; sample: number; label: number }[];
    expect(rows).toHaveLength(6);
    // 'helpful' is the catalog's second dimension; labels REJECT = 0, OK = 1
    expect(rows.every((r) => r.dimension === 1 && (r.label === 0 || r.label === 1))).toBe(true);
    expect(rows.map((r) => r.sample)).toEqual([1, 2, 1, 2, 1, 2]);
    expect(listStudyJudgeRuns(lead, rubric).find((r) => r.name === 'helpful')).toMatchObject({ origin: 'launched', labels: 6 });
  }, 60_000);
});

describe('a template that does not fit the study (issue 26, point 4)', () => {
  it('a pairwise template on a rubric study is refused before any request, and says which template fits', () => {
    const rubric = createStudy(lead, { kind: 'rubric', name: 'Rubric misfit', dimensions: 'ok-reject' }).id;
    const items = ['m-1', 'm-2'].map((id) =>
      JSON.stringify({ id, problem: 'Solve', history: [{ role: 'student', text: 'help' }], reply: { source: 't', text: 'Try 3.' } }),
    );
    importItems(lead, rubric, writeTemp(dir, 'misfit.jsonl', items.join('\n')), 'concord');
    const before = sql().prepare('SELECT count(*) FROM judge_runs WHERE study_id = ?').pluck().get(rubric);
    const launch = () =>
      launchJudgeRun(lead, rubric, { name: 'misfit', endpoint: 'stand-in', model: 'rubric-m', template: PAIRWISE_CRITERION_TEMPLATE });
    expect(codeOf(launch)).toBe('invalid');
    expect(launch).toThrow(/\{\{response_1\}\}, \{\{response_2\}\}.*mrbench-dimension/);
    expect(sql().prepare('SELECT count(*) FROM judge_runs WHERE study_id = ?').pluck().get(rubric)).toBe(before);
    expect(codeOf(() => previewJudgeTemplate(lead, rubric, PAIRWISE_CRITERION_TEMPLATE, 'm-1'))).toBe('invalid');
    // The reverse: a rubric template on a pairwise study leaves {{reply}} empty.
    expect(() => previewJudgeTemplate(lead, studyId, LEAKAGE_TEMPLATE)).toThrow(/\{\{reply\}\}.*pairwise-criterion/);
  });

  it('"a random item" previews one of the study\'s items without an id typed in', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 2; i++)
      seen.add(previewJudgeTemplate(lead, studyId, PAIRWISE_CRITERION_TEMPLATE, null, { random: true }).item);
    expect([...seen].every((id) => /^it-[0-4]$/.test(id))).toBe(true);
    expect(seen.size).toBe(2);
  });
});
