import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flowRecords } from '@/lib/kinds/flow/records';
import { annotationRecords, judgeRecords, pairwiseRecords } from '@/lib/kinds/pairwise/records';
import type { RecordResult } from './records';
import { contentHash } from './canonical';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-records-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, lines: unknown[]) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return p;
};
const failures = <T>(results: Iterable<RecordResult<T>>) => Array.from(results).flatMap((r) => (r.ok ? [] : r.errors));

const flow = (id: string) => ({ id, problem: { text: 'What is 2+3?', answer: 5 }, steps: [{ speaker: 'tutor', text: 'Ask.' }] });

describe('flowRecords (concord)', () => {
  it('reports every bad line by number and field path', () => {
    const p = write('flows.jsonl', [
      flow('f1'),
      {
        ...flow('f2'),
        steps: [
          { speaker: 'tutor', text: 'a' },
          { speaker: 'teacher', text: 'b' },
        ],
      },
      flow('f3'),
      '',
      { id: 'f5', problem: {}, steps: [] },
      flow('f6'),
    ]);
    const results = Array.from(flowRecords(p, 'concord'));
    expect(results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [5, false],
      [6, true],
    ]);
    expect(failures(results)).toEqual([
      { line: 2, path: 'steps[1].speaker', message: 'must be one of tutor, student' },
      { line: 5, path: 'problem.text', message: 'is required' },
      { line: 5, path: 'steps', message: 'must have at least one item' },
    ]);
  });

  it('yields parsed values, so the hash ignores stripped keys and number/text answers agree', () => {
    const p = write('flows-ok.jsonl', [{ ...flow('f1'), extra: 'dropped' }]);
    const [r] = Array.from(flowRecords(p, 'concord'));
    expect(r.ok && r.value).toEqual({ ...flow('f1'), problem: { text: 'What is 2+3?', answer: '5' } });
    expect(r.ok && contentHash(r.value)).toBe(contentHash({ ...flow('f1'), problem: { text: 'What is 2+3?', answer: '5' } }));
  });

  it('passes read errors through as failures', () => {
    const p = write('flows-broken.jsonl', ['{"id":', flow('f2')]);
    const results = Array.from(flowRecords(p, 'concord'));
    expect(results[0]).toMatchObject({ line: 1, ok: false });
    expect(failures(results)[0].message).toMatch(/^line is not valid JSON/);
    expect(results[1].ok).toBe(true);
  });

  it('reports a material without a kind', () => {
    const p = write('flows-kind.jsonl', [{ ...flow('f1'), materials: [{ id: 'M1', text: 'x' }] }]);
    expect(failures(flowRecords(p, 'concord'))).toEqual([
      { line: 1, path: 'materials[0].kind', message: 'must be one of follow_up, error_analysis, similar_problem, clarification' },
    ]);
  });
});

describe('pairwise, annotation and judge records (concord)', () => {
  it('validates pairwise lines', () => {
    const good = { id: 'p1', problem: 'x', a: { source: 'm', text: 'a' }, b: { source: 'r', text: 'b' } };
    const p = write('pairs.jsonl', [good, { ...good, id: 'p2', b: { text: 'b' } }]);
    const results = Array.from(pairwiseRecords(p, 'concord'));
    expect(results[0]).toEqual({ line: 1, ok: true, value: { ...good, history: [] } });
    expect(failures(results)).toEqual([{ line: 2, path: 'b.source', message: 'is required' }]);
  });

  it('validates annotation lines', () => {
    const p = write('ann.jsonl', [
      { item: 'p1', annotator: 'ann1', labels: { overall: 'win' } },
      { item: 'p1', annotator: 'ann2', labels: { overall: 'Win' } },
    ]);
    expect(failures(annotationRecords(p))).toEqual([{ line: 2, path: 'labels.overall', message: 'must be one of lose, tie, win' }]);
  });

  it('checks the judge name when the run is named', () => {
    const p = write('judge.jsonl', [
      { item: 'p1', judge: 'gemini', labels: { overall: 'win' }, swapped: true },
      { item: 'p2', judge: 'gpt', labels: { overall: 'tie' } },
    ]);
    const all = Array.from(judgeRecords(p, 'concord'));
    expect(all.every((r) => r.ok)).toBe(true);
    expect(all[1].ok && all[1].value.swapped).toBe(false);
    expect(failures(judgeRecords(p, 'concord', 'gemini'))).toEqual([
      { line: 2, path: 'judge', message: 'is "gpt", but this file is being imported as the run "gemini"' },
    ]);
  });

  it('refuses an unknown format', () => {
    expect(() => flowRecords('x', 'csv' as never)).toThrow(/Unknown flow format "csv"/);
  });
});
