import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataPath } from '@/lib/io/public-data';
import { MRBENCH_V3_CATALOG, OK_REJECT_CATALOG } from '@/lib/validation/rubric-catalogs';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { importAnnotationsForRequest, importItemsForRequest, importJudgeForRequest } from './import-process';
import { ImportRejected } from './import-report';
import { checkBeforeEachCommit } from './import-staging';
import { importItems } from './imports';
import { importJudge } from './judge-import';
import { importAnnotations } from './prior-annotations';
import { createStudy } from '../studies/studies';

// Rubric imports against a real SQLite file: items with their group, prior annotations and judge runs stored as
// dimension/label codes, every file all or nothing with line and field errors.
const { dir } = useTestDatabase();
const q = <T = number>(sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as T;
const rows = <T>(sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .all(...a) as T[];

let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});

const rubricStudy = (dimensions: unknown = 'mrbench-v3', extra: Record<string, unknown> = {}) =>
  createStudy(lead, { kind: 'rubric', name: 'Rubric', dimensions, ...extra });

const jsonl = (name: string, lines: unknown[]) =>
  writeTemp(dir, name, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);

const item = (id: string, group?: string, source = 'Sonnet') => ({
  id,
  ...(group ? { group } : {}),
  history: [
    { role: 'tutor', text: 'What is 3 + 4?' },
    { role: 'student', text: 'It is 8.' },
  ],
  reply: { source, text: `Reply ${id}` },
});

function rejected(fn: () => unknown): ImportRejected {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportRejected) return e;
    throw e;
  }
  throw new Error('expected the file to be refused');
}

describe('creating a rubric study', () => {
  it('copies a shipped catalog into the study, two reviewers per item by default', () => {
    const s = rubricStudy('mrbench-v3');
    expect(s.kind).toBe('rubric');
    expect(s.reviewersPerItem).toBe(2);
    expect(s.dimensions).toEqual(MRBENCH_V3_CATALOG);
    expect(s.criteria).toEqual([]);
    expect(JSON.parse(q<string>('SELECT criteria FROM studies WHERE id = ?', s.id))).toEqual(MRBENCH_V3_CATALOG);
  });

  it('accepts a catalog file of its own, as text or parsed', () => {
    const mine = [{ id: 'leak', name: 'Answer withheld', labels: ['REJECT', 'OK'], desired: 'OK' }];
    expect(rubricStudy(JSON.stringify(mine)).dimensions).toEqual(mine);
    expect(rubricStudy(mine, { reviewersPerItem: 3 }).reviewersPerItem).toBe(3);
  });

  it('names the dimension and field of every catalog problem, and creates nothing', () => {
    const before = q('SELECT count(*) FROM studies');
    const bad = [
      { id: 'a', name: 'A', labels: ['No'], desired: 'No' },
      { id: 'b', name: 'B', labels: ['No', 'Yes'], desired: 'Maybe', lenient: { Perhaps: 'Yes' } },
      { id: 'a', name: 'A again', labels: ['No', 'Yes'], desired: 'Yes' },
    ];
    let error: DomainError | undefined;
    try {
      rubricStudy(JSON.stringify(bad));
    } catch (e) {
      error = e as DomainError;
    }
    expect(error).toBeInstanceOf(DomainError);
    const found = (error!.details as { catalogErrors: { line: number; dimension: string | null; path: string; message: string }[] })
      .catalogErrors;
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 1, dimension: 'a', path: 'labels' }),
        expect.objectContaining({ line: 2, dimension: 'b', path: 'desired', message: '"Maybe" is not one of No, Yes' }),
        expect.objectContaining({ line: 2, dimension: 'b', path: 'lenient.Perhaps' }),
        expect.objectContaining({ line: 3, dimension: 'a', path: 'id' }),
      ]),
    );
    expect(error!.message).toContain('dimension 2 (b), desired: "Maybe" is not one of No, Yes');
    expect(q('SELECT count(*) FROM studies')).toBe(before);
  });

  it('refuses a rubric study without dimensions, an unknown catalog name, and dimensions on another kind', () => {
    expect(() => createStudy(lead, { kind: 'rubric', name: 'No catalog' })).toThrow(/Choose the dimensions/);
    expect(() => rubricStudy('mrbench-v9')).toThrow(/neither a shipped catalog \(mrbench-v3, mrbench-v1, ok-reject\)/);
    expect(() => createStudy(lead, { kind: 'pairwise', name: 'P', dimensions: 'mrbench-v3' })).toThrow(
      /Only rubric studies have dimensions/,
    );
  });
});

describe('rubric items', () => {
  it('imports items with their group and hidden source; a re-import is a no-op', () => {
    const s = rubricStudy();
    const file = jsonl('items.jsonl', [item('d1-A', 'd1'), item('d1-B', 'd1', 'Expert'), item('solo')]);
    expect(importItems(lead, s.id, file, 'concord')).toEqual({ records: 3, inserted: 3, unchanged: 0 });
    expect(rows('SELECT external_id AS id, group_key AS g, source_a AS src FROM items WHERE study_id = ? ORDER BY position', s.id)).toEqual(
      [
        { id: 'd1-A', g: 'd1', src: 'Sonnet' },
        { id: 'd1-B', g: 'd1', src: 'Expert' },
        { id: 'solo', g: null, src: 'Sonnet' },
      ],
    );
    expect(importItems(lead, s.id, file, 'concord')).toEqual({ records: 3, inserted: 0, unchanged: 3 });
  });

  it('refuses a file with bad lines whole, naming line and field', () => {
    const s = rubricStudy();
    const file = jsonl('bad-items.jsonl', [item('ok-1'), { id: 'x', history: [] }, item('ok-1'), '{not json']);
    const e = rejected(() => importItems(lead, s.id, file, 'concord'));
    expect(e.errors.map((x) => [x.line, x.path])).toEqual([
      [2, 'history'],
      [3, 'id'],
      [4, ''],
    ]);
    expect(q('SELECT count(*) FROM items WHERE study_id = ?', s.id)).toBe(0);
    expect(() => importItems(lead, s.id, file, 'bridge')).toThrow(/use one of: concord, mrbench, mrbench-v1, aitutor-evalkit/);
  });

  it('imports big files through the import process, same report', async () => {
    const s = rubricStudy();
    const file = jsonl('child.jsonl', [item('c-1', 'g'), item('c-2', 'g')]);
    expect(await importItemsForRequest(lead, s.id, file, 'concord', 'child.jsonl', 0)).toEqual({ records: 2, inserted: 2, unchanged: 0 });
    const bad = jsonl('child-bad.jsonl', [item('c-3'), { id: 'c-4' }]);
    await expect(importItemsForRequest(lead, s.id, bad, 'concord', 'child-bad.jsonl', 0)).rejects.toBeInstanceOf(ImportRejected);
    expect(q('SELECT count(*) FROM items WHERE study_id = ?', s.id)).toBe(2);
  }, 60_000);
});

describe('MRBench V3 dev set', () => {
  const file = publicDataPath('mrbench', 'mrbench_v3_devset.json');

  it('imports every reply as an item, each dialogue a group, and the gold labels as mrbench-gold', () => {
    // Counted here from the file itself, independently of the adapter.
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { tutor_responses: Record<string, { annotation: Record<string, string> }> }[];
    const replies = raw.flatMap((r) => Object.values(r.tutor_responses));
    const s = rubricStudy('mrbench-v3', { reviewersPerItem: 1 });
    const report = importItems(lead, s.id, file, 'mrbench');
    expect(report).toEqual({
      records: replies.length,
      inserted: replies.length,
      unchanged: 0,
      annotations: { records: replies.length, inserted: replies.length, unchanged: 0 },
    });
    expect(q('SELECT count(DISTINCT group_key) FROM items WHERE study_id = ?', s.id)).toBe(raw.length);
    const gold = rows<{ active: number; password_hash: string | null }>(
      "SELECT active, password_hash FROM users WHERE username = 'mrbench-gold'",
    )[0];
    expect(gold).toEqual({ active: 0, password_hash: null });

    // The share of "Yes" per dimension, from the stored codes, equals the share in the file.
    MRBENCH_V3_CATALOG.forEach((d, k) => {
      const field = replies.map((r) => Object.entries(r.annotation).find(([f]) => f.toLowerCase() === d.id)![1]);
      const yes = d.labels.indexOf('Yes');
      const stored = q(
        `SELECT count(*) FROM rubric_labels l JOIN annotations an ON an.id = l.annotation_id JOIN assignments a ON a.id = an.assignment_id
          WHERE a.study_id = ? AND l.dimension = ? AND l.label = ?`,
        s.id,
        k,
        yes,
      );
      expect(stored).toBe(field.filter((v) => v === 'Yes').length);
    });
    // Every label is in its annotation's pack too.
    expect(q('SELECT sum(length(packed)) FROM annotation_packs WHERE study_id = ?', s.id)).toBe(replies.length * 4);
    // Prior annotations of MRBench again: all unchanged.
    expect(importAnnotations(lead, s.id, file, 'mrbench')).toEqual({ records: replies.length, inserted: 0, unchanged: replies.length });
  });

  it('refuses MRBench gold labels in a study whose catalog does not have them', () => {
    const s = rubricStudy('ok-reject');
    const e = rejected(() => importItems(lead, s.id, file, 'mrbench'));
    expect(e.errors[0].message).toMatch(/is not a dimension of this study \(leakage, helpful\)|is not a dimension of this study/);
    expect(q('SELECT count(*) FROM items WHERE study_id = ?', s.id)).toBe(0);
  });
});

describe('prior annotations', () => {
  it('checks labels against the catalog, naming the allowed ones, and writes nothing on error', async () => {
    const s = rubricStudy();
    importItems(lead, s.id, jsonl('pa-items.jsonl', [item('p-1', 'g'), item('p-2', 'g')]), 'concord');
    const bad = jsonl('pa-bad.jsonl', [
      { item: 'p-1', annotator: 'rater1', labels: { mistake_identification: 'yes' } },
      { item: 'p-3', annotator: 'rater1', labels: { mistake_identification: 'Yes' } },
      { item: 'p-2', annotator: 'rater1', labels: { tone: 'Yes' } },
    ]);
    const e = rejected(() => importAnnotations(lead, s.id, bad, 'concord'));
    expect(e.errors).toEqual([
      { line: 1, path: 'labels.mistake_identification', message: '"yes" is not one of No, To some extent, Yes' },
      { line: 2, path: 'item', message: 'no item "p-3" in this study' },
      expect.objectContaining({ line: 3, path: 'labels.tone' }),
    ]);
    expect(q("SELECT count(*) FROM users WHERE username = 'rater1'")).toBe(0);

    const good = jsonl('pa-good.jsonl', [
      { item: 'p-1', annotator: 'rater1', labels: { mistake_identification: 'Yes', actionability: 'No' } },
      { item: 'p-1', annotator: 'rater2', labels: { mistake_identification: 'To some extent' } },
      { item: 'p-2', annotator: 'rater1', labels: { mistake_identification: 'No' } },
    ]);
    expect(importAnnotations(lead, s.id, good, 'concord')).toEqual({ records: 3, inserted: 3, unchanged: 0 });
    expect(
      rows(
        'SELECT a.state, a.slot, l.dimension, l.label FROM assignments a JOIN annotations an ON an.assignment_id = a.id JOIN rubric_labels l ON l.annotation_id = an.id JOIN items i ON i.id = a.item_id WHERE i.external_id = ? AND a.study_id = ? ORDER BY a.slot, l.dimension',
        'p-1',
        s.id,
      ),
    ).toEqual([
      { state: 'submitted', slot: 1, dimension: 0, label: 2 },
      { state: 'submitted', slot: 1, dimension: 3, label: 0 },
      { state: 'submitted', slot: 2, dimension: 0, label: 1 },
    ]);
    // Through the import process (as the server does for a large upload): same checks, same report.
    const viaChild = jsonl('pa-child.jsonl', [{ item: 'p-2', annotator: 'rater2', labels: { actionability: 'Yes' } }]);
    await expect(importAnnotationsForRequest(lead, s.id, viaChild, 'concord', 'pa-child.jsonl', 0)).resolves.toEqual({
      records: 1,
      inserted: 1,
      unchanged: 0,
    });
    await expect(importAnnotationsForRequest(lead, s.id, bad, 'concord', 'pa-bad.jsonl', 0)).rejects.toBeInstanceOf(ImportRejected);
    // A third rater beyond the two planned is taken in the next slot: the plan bounds only the app's assignments
    // (decision 0028).
    const third = jsonl('pa-third.jsonl', [{ item: 'p-1', annotator: 'rater3', labels: { mistake_identification: 'No' } }]);
    expect(importAnnotations(lead, s.id, third, 'concord')).toEqual({ records: 1, inserted: 1, unchanged: 0 });
    expect(
      q("SELECT max(a.slot) FROM assignments a JOIN items i ON i.id = a.item_id WHERE i.external_id = 'p-1' AND a.study_id = ?", s.id),
    ).toBe(3);
    // Different labels for an (item, annotator) already imported are refused; the same ones are a no-op.
    const changed = jsonl('pa-changed.jsonl', [{ item: 'p-2', annotator: 'rater1', labels: { mistake_identification: 'Yes' } }]);
    expect(rejected(() => importAnnotations(lead, s.id, changed, 'concord')).errors[0].message).toMatch(/already has different labels/);
    expect(importAnnotations(lead, s.id, good, 'concord')).toEqual({ records: 3, inserted: 0, unchanged: 3 });
  }, 60_000);
});

describe('judge runs', () => {
  let studyId: number;
  beforeAll(() => {
    studyId = rubricStudy(OK_REJECT_CATALOG).id;
    importItems(lead, studyId, jsonl('j-items.jsonl', [item('j-1', 'g'), item('j-2', 'g'), item('j-3')]), 'concord');
  });

  it('stores every sample as its own verdicts, with rationales', () => {
    const file = jsonl('judge.jsonl', [
      { item: 'j-1', judge: 'gpt', labels: { leakage: 'OK', helpful: 'REJECT' }, rationale: 'hints only' },
      { item: 'j-1', judge: 'gpt', labels: { leakage: 'REJECT' }, sample: 2 },
      { item: 'j-2', judge: 'gpt', labels: { helpful: 'OK' } },
    ]);
    expect(importJudge(lead, studyId, file, 'concord')).toEqual({ run: 'gpt', records: 3, labels: 4, unparsed: [] });
    expect(
      rows(
        'SELECT i.external_id AS item, v.dimension, v.sample, v.label, v.rationale FROM rubric_judge_labels v JOIN items i ON i.id = v.item_id ORDER BY i.external_id, v.sample, v.dimension',
      ),
    ).toEqual([
      { item: 'j-1', dimension: 0, sample: 1, label: 1, rationale: 'hints only' },
      { item: 'j-1', dimension: 1, sample: 1, label: 0, rationale: 'hints only' },
      { item: 'j-1', dimension: 0, sample: 2, label: 0, rationale: null },
      { item: 'j-2', dimension: 1, sample: 1, label: 1, rationale: null },
    ]);
    expect(() => importJudge(lead, studyId, file, 'concord')).toThrow(/already exists/);
  });

  it('refuses unknown items, dimensions, labels and repeated verdicts, writing nothing', () => {
    const before = q('SELECT count(*) FROM rubric_judge_labels');
    const file = jsonl('judge-bad.jsonl', [
      { item: 'nope', judge: 'j2', labels: { leakage: 'OK' } },
      { item: 'j-1', judge: 'j2', labels: { tone: 'OK' } },
      { item: 'j-1', judge: 'j2', labels: { leakage: 'ok' } },
      { item: 'j-2', judge: 'j2', labels: { leakage: 'OK' } },
      { item: 'j-2', judge: 'j2', labels: { leakage: 'REJECT' } },
      { item: 'j-3', judge: 'j2', labels: { leakage: 'OK' }, sample: 101 },
    ]);
    const e = rejected(() => importJudge(lead, studyId, file, 'concord'));
    expect(e.errors.map((x) => [x.line, x.path])).toEqual([
      [1, 'item'],
      [2, 'labels.tone'],
      [3, 'labels.leakage'],
      [5, 'labels.leakage'],
      [6, 'sample'],
    ]);
    expect(e.errors[2].message).toBe('"ok" is not one of REJECT, OK');
    expect(q('SELECT count(*) FROM rubric_judge_labels')).toBe(before);
    expect(q("SELECT count(*) FROM judge_runs WHERE name = 'j2'")).toBe(0);
  });

  it('imports a large run through the import process', async () => {
    const lines = Array.from({ length: 60 }, (_, k) => ({
      item: `j-${(k % 3) + 1}`,
      judge: 'many',
      labels: { leakage: k % 2 ? 'OK' : 'REJECT' },
      sample: Math.floor(k / 3) + 1,
    }));
    const file = jsonl('judge-many.jsonl', lines);
    const r = await importJudgeForRequest(lead, studyId, file, 'concord', undefined, 'judge-many.jsonl', 0);
    expect(r).toEqual({ run: 'many', records: 60, labels: 60, unparsed: [] });
    expect(q("SELECT count(*) FROM rubric_judge_labels v JOIN judge_runs r ON r.id = v.run_id WHERE r.name = 'many'")).toBe(60);
  }, 60_000);
});

describe('a judge import that fails after some batches', () => {
  it('leaves no run and no verdict behind', () => {
    const s = rubricStudy(OK_REJECT_CATALOG);
    importItems(
      lead,
      s.id,
      jsonl(
        'u-items.jsonl',
        Array.from({ length: 30 }, (_, k) => item(`u-${k}`)),
      ),
      'concord',
    );
    const lines = [];
    for (let k = 0; k < 30; k++)
      for (let sample = 1; sample <= 50; sample++)
        lines.push({ item: `u-${k}`, judge: 'dies', labels: { leakage: 'OK', helpful: 'REJECT' }, sample });
    const file = jsonl('u-judge.jsonl', lines);
    let commits = 0;
    let seenVerdicts = 0;
    checkBeforeEachCommit(() => {
      commits++;
      seenVerdicts = Math.max(
        seenVerdicts,
        q('SELECT count(*) FROM rubric_judge_labels v JOIN judge_runs r ON r.id = v.run_id WHERE r.study_id = ?', s.id),
      );
      if (commits === 3) throw new Error('stopped on purpose');
    });
    try {
      expect(() => importJudge(lead, s.id, file, 'concord')).toThrow('stopped on purpose');
    } finally {
      checkBeforeEachCommit(() => {});
    }
    // Batches had been written before the failure, and are gone again.
    expect(seenVerdicts).toBeGreaterThan(0);
    expect(q('SELECT count(*) FROM rubric_judge_labels v JOIN judge_runs r ON r.id = v.run_id WHERE r.study_id = ?', s.id)).toBe(0);
    expect(q('SELECT count(*) FROM judge_runs WHERE study_id = ?', s.id)).toBe(0);
    expect(q("SELECT count(*) FROM imports WHERE study_id = ? AND state = 'staging'", s.id)).toBe(0);
    expect(importJudge(lead, s.id, file, 'concord').labels).toBe(3000);
  });
});

describe('AITutor-EvalKit', () => {
  it('imports the sample as items and each judge of the predictions as a run, unreadable verdicts listed', () => {
    const s = rubricStudy('mrbench-v3');
    const items = importItems(lead, s.id, publicDataPath('aitutor-evalkit', 'test_sample.json'), 'aitutor-evalkit');
    expect(items.inserted).toBe(85);
    const auto = importJudge(lead, s.id, publicDataPath('aitutor-evalkit', 'auto_model_predictions.json'), 'aitutor-evalkit');
    expect(auto.run).toBe('aitutor-evalkit-auto');
    const gpt = importJudge(lead, s.id, publicDataPath('aitutor-evalkit', 'gpt5_model_predictions.json'), 'aitutor-evalkit');
    expect(gpt.run).toBe('gpt5');
    // Counted from the files themselves: every label in the MRBench label set is a verdict, the rest are listed.
    const allowed = ['No', 'To some extent', 'Yes'];
    const expected = (
      name: string,
      pick: (reply: { auto_annotation?: Record<string, unknown>; llm_annotation?: Record<string, unknown> }) => unknown[],
    ) => {
      const raw = JSON.parse(fs.readFileSync(publicDataPath('aitutor-evalkit', name), 'utf8')) as {
        anno_llm_responses: Record<string, never>;
      }[];
      const values = raw.flatMap((r) => Object.values(r.anno_llm_responses).flatMap(pick));
      return values.filter((v) => typeof v === 'string' && allowed.includes(v.trim())).length;
    };
    expect(auto.labels).toBe(expected('auto_model_predictions.json', (r) => Object.values(r.auto_annotation ?? {})));
    expect(gpt.labels).toBe(
      expected('gpt5_model_predictions.json', (r) =>
        Object.entries(r.llm_annotation ?? {})
          .filter(([k]) => k.endsWith('/gpt5'))
          .map(([, v]) => v),
      ),
    );
    for (const r of [auto, gpt]) {
      const stored = q(
        'SELECT count(*) FROM rubric_judge_labels v JOIN judge_runs j ON j.id = v.run_id WHERE j.study_id = ? AND j.name = ?',
        s.id,
        r.run,
      );
      expect(stored).toBe(r.labels);
    }
  });
});
