import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { publicDataPath } from '@/lib/io/public-data';
import { runInBatch } from '@/test/cli-batch';

// The rubric commands as a user runs them, on a temporary database, answered by one `concord batch` process for the
// file (test/cli-batch.ts), each command as it would run alone. The MRBench imports and reports take seconds on a
// busy machine, so a test of several commands keeps a generous time limit.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-rubric-cli-'));
const dbFile = path.join(dir, 'cli.db');
const env = { ...process.env, CONCORD_DB: dbFile };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function concord(args: string[], input?: string) {
  const r = runInBatch(env, args, input);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

function count(sql: string, ...args: unknown[]): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(sql)
      .pluck()
      .get(...args) as number;
  } finally {
    db.close();
  }
}

describe('concord with rubric studies', () => {
  it('creates an MRBench study, imports the dev set with its gold labels, and opens it', () => {
    const created = concord([
      'study',
      'create',
      '--kind',
      'rubric',
      '--name',
      'MRBench',
      '--dimensions',
      'mrbench-v3',
      '--reviewers',
      '2',
      '--json',
    ]);
    expect(created.err).toBe('');
    const { id } = JSON.parse(created.out) as { id: number };
    const raw = JSON.parse(fs.readFileSync(publicDataPath('mrbench', 'mrbench_v3_devset.json'), 'utf8')) as { tutor_responses: object }[];
    const replies = raw.reduce((n, r) => n + Object.keys(r.tutor_responses).length, 0);
    const imported = concord([
      'import',
      'items',
      '--study',
      String(id),
      '--format',
      'mrbench',
      publicDataPath('mrbench', 'mrbench_v3_devset.json'),
    ]);
    expect(imported.err).toBe('');
    expect(imported.out).toContain(`Imported ${replies} new item(s)`);
    expect(imported.out).toContain(`Imported ${replies} prior annotation(s)`);
    expect(count('SELECT count(DISTINCT group_key) FROM items WHERE study_id = ?', id)).toBe(raw.length);

    expect(concord(['user', 'add', 'rater', '--role', 'annotator'], 'a-good-password\n').code).toBe(0);
    expect(concord(['study', 'members', String(id), 'rater']).code).toBe(0);
    const opened = concord(['study', 'open', String(id)]);
    expect(opened.err).toBe('');
    // Gold fills one slot of each reply, the rater the other.
    expect(count("SELECT count(*) FROM assignments WHERE study_id = ? AND state = 'pending'", id)).toBe(replies);
  }, 180_000);

  it('reports each catalog problem by dimension and field, and creates nothing', () => {
    const file = path.join(dir, 'dims.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        { id: 'leak', name: 'Leak', labels: ['REJECT', 'OK'], desired: 'Maybe' },
        { id: 'x', name: 'X', labels: ['one'], desired: 'one' },
      ]),
    );
    const before = count('SELECT count(*) FROM studies');
    const r = concord(['study', 'create', '--kind', 'rubric', '--name', 'Bad', '--dimensions', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('dimension 1 (leak), desired: "Maybe" is not one of REJECT, OK');
    expect(r.err).toMatch(/dimension 2 \(x\), labels: /);
    expect(concord(['study', 'create', '--kind', 'rubric', '--name', 'Bad', '--dimensions', 'nope-v2']).err).toContain(
      'neither a shipped catalog (mrbench-v3, mrbench-v1, ok-reject) nor an existing file',
    );
    expect(count('SELECT count(*) FROM studies')).toBe(before);
  }, 180_000);

  it('imports prior annotations and a judge run with samples; an unknown label names the allowed ones', () => {
    const { id } = JSON.parse(
      concord(['study', 'create', '--kind', 'rubric', '--name', 'Judged', '--dimensions', 'ok-reject', '--json']).out,
    ) as { id: number };
    const items = path.join(dir, 'items.jsonl');
    fs.writeFileSync(
      items,
      ['a', 'b'].map((k) => JSON.stringify({ id: k, history: [{ role: 'tutor', text: `dialogue ${k}` }] })).join('\n'),
    );
    expect(concord(['import', 'items', '--study', String(id), items]).code).toBe(0);

    const bad = path.join(dir, 'bad-ann.jsonl');
    fs.writeFileSync(bad, `${JSON.stringify({ item: 'a', annotator: 'x', labels: { leakage: 'FINE' } })}\n`);
    const refused = concord(['import', 'annotations', '--study', String(id), bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('line 1, labels.leakage: "FINE" is not one of REJECT, OK');

    const ann = path.join(dir, 'ann.jsonl');
    fs.writeFileSync(ann, `${JSON.stringify({ item: 'a', annotator: 'rater-x', labels: { leakage: 'OK', helpful: 'REJECT' } })}\n`);
    expect(concord(['import', 'annotations', '--study', String(id), ann]).out).toContain('Imported 1 annotation(s)');

    const judge = path.join(dir, 'judge.jsonl');
    fs.writeFileSync(
      judge,
      [1, 2, 3]
        .map((sample) =>
          JSON.stringify({
            item: 'b',
            judge: 'qwen',
            labels: { leakage: sample === 2 ? 'REJECT' : 'OK' },
            sample,
            rationale: `s${sample}`,
          }),
        )
        .join('\n'),
    );
    const r = concord(['import', 'judge', '--study', String(id), '--json', judge]);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({ run: 'qwen', records: 3, labels: 3, unparsed: [] });
    expect(count("SELECT count(DISTINCT sample) FROM rubric_judge_labels WHERE rationale LIKE 's%'")).toBe(3);
  }, 180_000);
});
