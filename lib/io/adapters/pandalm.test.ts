import { describe, expect, it } from 'vitest';
import { annotationRecords, judgeRecords, pairwiseRecords } from '@/lib/kinds/pairwise/records';
import { publicDataPath } from '../public-data';
import type { AnnotationLine, JudgeLine } from '@/lib/validation/pairwise';
import { LABELS, type Label } from '@/lib/validation/labels';
import { pandalmJudgeName, pandalmLabel } from './pandalm';

const testset = publicDataPath('pandalm', 'testset-v1.json');
const gptFile = publicDataPath('pandalm', 'gpt-3.5-turbo-testset-v1.json');
const pandalmFile = publicDataPath('pandalm', 'pandalm-7b-testset-v1.json');

const distribution = (labels: Label[]) => Object.fromEntries(LABELS.map((l) => [l, labels.filter((x) => x === l).length]));

/** Unweighted Cohen's kappa, written out here so the test checks the label mapping, not a library. */
function cohensKappa(x: Label[], y: Label[]): number {
  const n = x.length;
  const observed = x.filter((v, i) => v === y[i]).length / n;
  const expected = LABELS.reduce((s, l) => s + (x.filter((v) => v === l).length / n) * (y.filter((v) => v === l).length / n), 0);
  return (observed - expected) / (1 - expected);
}

describe('PandaLM test set → pairwise items', () => {
  const results = Array.from(pairwiseRecords(testset, 'pandalm'));
  const items = results.flatMap((r) => (r.ok ? [r.value] : []));
  const byId = new Map(items.map((i) => [i.id, i] as const));

  it('converts all 999 items', () => {
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(items).toHaveLength(999);
    expect(new Set(items.map((i) => i.id)).size).toBe(999);
    expect(items.every((i) => i.history.length === 0 && i.principles === undefined)).toBe(true);
  });

  it('converts the first item exactly', () => {
    expect(byId.get('pandalm-0')).toEqual({
      id: 'pandalm-0',
      problem:
        'The sentence you are given might be too wordy, complicated, or unclear. Rewrite the sentence and make your writing clearer by keeping it concise. Whenever possible, break complex sentences into multiple sentences and eliminate unnecessary words.\n\nIf you have any questions about my rate or if you find it necessary to increase or decrease the scope for this project, please let me know.',
      history: [],
      a: { source: 'pandalm-response1', text: 'If you have any questions about my rate, please let me know.' },
      b: { source: 'pandalm-response2', text: 'If you have any questions, please let me know.' },
    });
  });

  it('keeps odd responses as text: JSON true, empty replies, a blank instruction', () => {
    expect(byId.get('pandalm-157')!.a.text).toBe('true');
    expect(byId.get('pandalm-157')!.b.text).toBe('True.');
    expect(items.filter((i) => i.a.text === '')).toHaveLength(29);
    expect(items.filter((i) => i.b.text === '')).toHaveLength(25);
    expect(byId.get('pandalm-466')!.problem).toBe('Truthfulness');
  });
});

describe('PandaLM human labels → annotation lines', () => {
  const results = Array.from(annotationRecords(testset, 'pandalm'));
  const lines = results.flatMap((r) => (r.ok ? [r.value] : []));
  const labelsOf = (annotator: string) =>
    lines.filter((l: AnnotationLine) => l.annotator === annotator).map((l) => l.labels.overall as Label);

  it('gives three lines per item, all for overall', () => {
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(lines).toHaveLength(2997);
    expect(lines.every((l) => Object.keys(l.labels).join() === 'overall')).toBe(true);
    expect(lines.slice(0, 3)).toEqual([
      { item: 'pandalm-0', annotator: 'pandalm-annotator1', labels: { overall: 'lose' } },
      { item: 'pandalm-0', annotator: 'pandalm-annotator2', labels: { overall: 'lose' } },
      { item: 'pandalm-0', annotator: 'pandalm-annotator3', labels: { overall: 'lose' } },
    ]);
  });

  it('maps 1 → win, 2 → lose, 0 → tie (label counts of the published file)', () => {
    expect(distribution(labelsOf('pandalm-annotator1'))).toEqual({ lose: 475, tie: 97, win: 427 });
    expect(distribution(labelsOf('pandalm-annotator2'))).toEqual({ lose: 466, tie: 116, win: 417 });
    expect(distribution(labelsOf('pandalm-annotator3'))).toEqual({ lose: 475, tie: 113, win: 411 });
  });

  it("reproduces the inter-annotator kappas reported for PandaLM's test set", () => {
    const [a1, a2, a3] = [1, 2, 3].map((k) => labelsOf(`pandalm-annotator${k}`));
    expect(cohensKappa(a1, a2)).toBeCloseTo(0.852, 4);
    expect(cohensKappa(a1, a3)).toBeCloseTo(0.8789, 4);
    expect(cohensKappa(a2, a3)).toBeCloseTo(0.8617, 4);
  });
});

describe('PandaLM judges → judge lines', () => {
  it('reports the 25 garbage verdicts of GPT-3.5 and never guesses them', () => {
    const results = Array.from(judgeRecords(gptFile, 'pandalm'));
    expect(results).toHaveLength(999);
    const bad = results.flatMap((r) => (r.ok ? [] : r.errors));
    expect(bad).toHaveLength(25);
    for (const e of bad) {
      expect(e.path).toBe('gpt_result');
      expect(e.message).toBe(`record ${e.line}, gpt_result: unparseable verdict 'garbage'`);
    }
    expect(bad[0].line).toBe(115);
    const ok = results.flatMap((r) => (r.ok ? [r.value] : []));
    expect(distribution(ok.map((l: JudgeLine) => l.labels.overall as Label))).toEqual({ lose: 476, tie: 38, win: 460 });
    expect(ok[0]).toEqual({
      item: 'pandalm-0',
      judge: 'gpt-3.5-turbo',
      labels: { overall: 'win' },
      swapped: false,
      rationale: 'Response 1 is better because it addresses both questions about the rate and changes in project scope.',
    });
  });

  it('reads the PandaLM-7B verdicts (numbers, 0 = tie) and accepts a run name', () => {
    const results = Array.from(judgeRecords(pandalmFile, 'pandalm', 'pandalm-7b v1'));
    expect(results.every((r) => r.ok)).toBe(true);
    const ok = results.flatMap((r) => (r.ok ? [r.value] : []));
    expect(distribution(ok.map((l) => l.labels.overall as Label))).toEqual({ lose: 459, tie: 107, win: 433 });
    expect(new Set(ok.map((l) => l.judge))).toEqual(new Set(['pandalm-7b v1']));
    expect(ok[0].labels.overall).toBe('lose');
  });

  it('names a judge after its file and parses verdicts strictly', () => {
    expect(pandalmJudgeName(gptFile)).toBe('gpt-3.5-turbo');
    expect(pandalmJudgeName(pandalmFile)).toBe('pandalm-7b');
    expect([1, '1', 2, '2', 0, '0', 'Tie', ' tie '].map(pandalmLabel)).toEqual(['win', 'win', 'lose', 'lose', 'tie', 'tie', 'tie', 'tie']);
    expect(['garbage', 3, '', null, undefined, true, '1.0'].map(pandalmLabel)).toEqual([null, null, null, null, null, null, null]);
  });
});
