import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { runInBatch } from '@/test/cli-batch';
import { startStandIn, type StandIn } from '@/test/judge-standin';

// `judge disagreements`, `judge examples` and `judge compare` as a lead runs them: the real CLI, a run judged by the
// local stand-in, a new version with worked examples from its disagreements, a run of that version, and the
// comparison that leaves the examples' items out.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-judge-examples-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'examples.db') };
const ITEMS = 12;
let standIn: StandIn;
let study: string;

type Result = { code: number | null; out: string; err: string };
/** A command that needs nothing from this process: in one `concord batch` process for the file (test/cli-batch.ts). */
const concord = (args: string[]): Result => {
  const r = runInBatch(env, args);
  return { code: r.code, out: r.stdout, err: r.stderr };
};
/** The CLI without blocking this process (the stand-in answers from here). */
const concordAsync = (args: string[]) =>
  new Promise<Result>((resolve) => {
    const child = spawn(process.execPath, ['lib/cli/bin.mjs', ...args], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
const judge = (name: string, prompt: string) =>
  concordAsync([
    'judge',
    'run',
    '--study',
    study,
    '--name',
    name,
    '--endpoint',
    standIn.url,
    '--model',
    'm',
    '--prompt',
    prompt,
    '--one-order',
  ]);

beforeAll(async () => {
  standIn = await startStandIn();
  const criteria = path.join(dir, 'criteria.json');
  fs.writeFileSync(criteria, JSON.stringify([{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which is clearer?' }]));
  study = String(
    JSON.parse(
      concord(['study', 'create', '--kind', 'pairwise', '--name', 'Examples', '--reviewers', '2', '--criteria', criteria, '--json']).out,
    ).id,
  );
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const items = path.join(dir, 'items.jsonl');
  fs.writeFileSync(
    items,
    jsonl(
      Array.from({ length: ITEMS }, (_, i) => ({
        id: `e${i}`,
        problem: `What is ${i} + 1?`,
        a: { source: 'm1', text: `It is ${i + 1}.` },
        b: { source: 'm2', text: 'No idea.' },
      })),
    ),
  );
  expect(concord(['import', 'items', '--study', study, items]).code).toBe(0);
  const LABELS = ['win', 'lose', 'tie'];
  const annotations = path.join(dir, 'annotations.jsonl');
  fs.writeFileSync(
    annotations,
    jsonl(
      Array.from({ length: ITEMS }, (_, i) =>
        ['ann1', 'ann2'].map((annotator) => ({
          item: `e${i}`,
          annotator,
          labels: { clarity: LABELS[i % 3], overall: LABELS[(i + 1) % 3] },
        })),
      ).flat(),
    ),
  );
  expect(concord(['import', 'annotations', '--study', study, annotations]).code).toBe(0);
  const prompt = path.join(dir, 'v1.json');
  fs.writeFileSync(prompt, JSON.stringify(PAIRWISE_CRITERION_TEMPLATE));
  expect((await judge('first', prompt)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await standIn.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('judge examples', () => {
  it('lists the disagreements, makes a version with k of them drawn by the seed, runs it, and compares without them', async () => {
    const d = JSON.parse(concord(['judge', 'disagreements', '--study', study, '--run', 'first', '--json']).out);
    expect(d.items).toBeGreaterThanOrEqual(3);
    const out = path.join(dir, 'v2.json');
    const args = ['judge', 'examples', '--study', study, '--run', 'first', '--k', '2', '--seed', '3', '--out', out, '--json'];
    const made = JSON.parse(concord(args).out);
    expect(made.template).toMatchObject({ name: 'pairwise-criterion', version: 2 });
    expect(made.chosen).toEqual({ by: 'seed', seed: 3 });
    const chosen = made.examples.map((e: { item: string }) => e.item);
    expect(chosen).toHaveLength(2);
    for (const item of chosen) expect(d.list.map((x: { item: string }) => x.item)).toContain(item);
    // the same seed again: the same items, the same version
    expect(JSON.parse(concord(args).out).template.id).toBe(made.template.id);
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).examples.map((e: { item: string }) => e.item)).toEqual(chosen);

    expect((await judge('second', out)).code).toBe(0);
    const c = concord(['judge', 'compare', '--study', study, '--runs', 'first,second']);
    expect(c.code).toBe(0);
    expect(c.out).toContain('second (pairwise-criterion v2): n 20,');
    expect(c.out).toContain(
      "2 items are worked examples in version 2 of pairwise-criterion (run second): these 2 items are left out of every run's alignment and κ here.",
    );
    const json = JSON.parse(concord(['judge', 'compare', '--study', study, '--runs', 'first,second', '--json']).out);
    expect(json.leftOut.items).toBe(2);
    expect(json.runs.map((r: { n: number }) => r.n)).toEqual([(ITEMS - 2) * 2, (ITEMS - 2) * 2]);
  }, 120_000);

  it('says why it refuses: more examples than disagreements, neither k nor items', () => {
    const tooMany = concord(['judge', 'examples', '--study', study, '--run', 'first', '--k', '20']);
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.err).toMatch(/disagreed with the settled ground truth on \d+ items/);
    const neither = concord(['judge', 'examples', '--study', study, '--run', 'first']);
    expect(neither.code).not.toBe(0);
    expect(neither.err).toContain('Give either k (drawn with a seed) or the items chosen.');
  });
});

/*
 * The same on a rubric study (the shipped ok-reject catalog: leakage and helpful, REJECT or OK): a run judged by the
 * stand-in through a pattern mapping first / second / tie to OK / REJECT / OK, a version with two of its
 * disagreements as worked examples, a run of it, and the rubric comparison without those replies.
 */
describe('judge examples on a rubric study', () => {
  const REPLIES = 12;
  let rubric: string;
  const rubricJudge = (name: string, prompt: string) =>
    concordAsync(['judge', 'run', '--study', rubric, '--name', name, '--endpoint', standIn.url, '--model', 'm', '--prompt', prompt]);

  beforeAll(async () => {
    rubric = String(
      JSON.parse(
        concord([
          'study',
          'create',
          '--kind',
          'rubric',
          '--name',
          'Rubric examples',
          '--dimensions',
          'ok-reject',
          '--reviewers',
          '2',
          '--json',
        ]).out,
      ).id,
    );
    const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const items = path.join(dir, 'rubric-items.jsonl');
    fs.writeFileSync(
      items,
      jsonl(
        Array.from({ length: REPLIES }, (_, i) => ({
          id: `r${i}`,
          history: [{ role: 'student', text: `Is ${i} + 1 = ${i + 2}?` }],
          reply: { source: `t${i % 2}`, text: `Check it again: ${i} + 1 is not ${i + 2}.` },
        })),
      ),
    );
    expect(concord(['import', 'items', '--study', rubric, items]).code).toBe(0);
    const annotations = path.join(dir, 'rubric-annotations.jsonl');
    fs.writeFileSync(
      annotations,
      jsonl(
        Array.from({ length: REPLIES }, (_, i) =>
          ['ann1', 'ann2'].map((annotator) => ({
            item: `r${i}`,
            annotator,
            labels: { leakage: i % 3 ? 'OK' : 'REJECT', helpful: i % 2 ? 'OK' : 'REJECT' },
          })),
        ).flat(),
      ),
    );
    expect(concord(['import', 'annotations', '--study', rubric, annotations]).code).toBe(0);
    const prompt = path.join(dir, 'rubric-v1.json');
    fs.writeFileSync(
      prompt,
      JSON.stringify({
        name: 'ok-words',
        user: 'Dialogue: {{history}}\nReply: {{reply}}\nQuestion: {{criterion.name}}',
        answer: { pattern: '"winner": "(first|second|tie)"', map: { first: 'OK', second: 'REJECT', tie: 'OK' } },
      }),
    );
    expect((await rubricJudge('first', prompt)).code).toBe(0);
  }, 120_000);

  it('lists the disagreements, makes a version with k of them, runs it, and compares without them', async () => {
    const d = JSON.parse(concord(['judge', 'disagreements', '--study', rubric, '--run', 'first', '--json']).out);
    expect(d.items).toBeGreaterThanOrEqual(2);
    for (const x of d.list) for (const c of x.criteria) expect(c.judge).not.toBe(c.settled);
    const out = path.join(dir, 'rubric-v2.json');
    const made = JSON.parse(
      concord(['judge', 'examples', '--study', rubric, '--run', 'first', '--k', '2', '--seed', '3', '--out', out, '--json']).out,
    );
    expect(made.template).toMatchObject({ name: 'ok-words', version: 2 });
    const chosen = made.examples.map((e: { item: string }) => e.item);
    for (const item of chosen) expect(d.list.map((x: { item: string }) => x.item)).toContain(item);
    for (const e of JSON.parse(fs.readFileSync(out, 'utf8')).examples) expect(e.answer).toMatch(/^"winner": "(first|second)"$/);

    expect((await rubricJudge('second', out)).code).toBe(0);
    const c = concord(['judge', 'compare', '--study', rubric, '--runs', 'first,second']);
    expect(c.code).toBe(0);
    expect(c.out).toContain(`second (ok-words v2), sample 1: n ${(REPLIES - 2) * 2},`);
    expect(c.out).toContain(
      "2 items are worked examples in version 2 of ok-words (run second): these 2 items are left out of every run's accuracy, macro-F1 and κ here.",
    );
    const json = JSON.parse(concord(['judge', 'compare', '--study', rubric, '--runs', 'first,second', '--json']).out);
    expect(json.leftOut.items).toBe(2);
    expect(json.runs.map((r: { n: number }) => r.n)).toEqual([(REPLIES - 2) * 2, (REPLIES - 2) * 2]);
    expect(json.runs.map((r: { byDimension: Record<string, { n: number }> }) => r.byDimension.leakage.n)).toEqual([
      REPLIES - 2,
      REPLIES - 2,
    ]);
  }, 120_000);
});
