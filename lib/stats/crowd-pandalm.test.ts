import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// Test only: Dawid–Skene, MACE and the annotator quality figures checked on real crowd data.
import { publicDataPath } from '@/lib/io/public-data';
import { annotatorQuality } from './annotator-quality';
import { dawidSkene } from './dawid-skene';
import { mace } from './mace';

/*
 * PandaLM's human test set: 999 pairs, each labelled by the same three annotators
 * (0 = tie, 1 = response 1 better, 2 = response 2 better), read straight from the JSON.
 */
type Raw = { idx: number } & Record<'annotator1' | 'annotator2' | 'annotator3', number>;
const raw = JSON.parse(fs.readFileSync(publicDataPath('pandalm', 'testset-v1.json'), 'utf8')) as Raw[];
const labels = [0, 1, 2];
const annotators = ['annotator1', 'annotator2', 'annotator3'] as const;
const data = {
  labels,
  annotators,
  items: raw.map((r) => r.idx),
  annotations: raw.flatMap((r) => annotators.map((a) => [r.idx, a, r[a]] as const)),
};

/** The unique plurality of an item's three labels (every PandaLM item has one). */
function majority(r: Raw): number {
  const counts = [0, 0, 0];
  for (const a of annotators) counts[r[a]]++;
  const max = Math.max(...counts);
  expect(counts.filter((c) => c === max)).toHaveLength(1);
  return counts.indexOf(max);
}

const rankOf = (v: readonly number[]) => v.map((_, j) => j).sort((a, b) => v[b] - v[a]);

describe('PandaLM, three annotators', () => {
  const ds = dawidSkene(data);
  const m = mace(data);
  const quality = annotatorQuality({
    labels,
    annotators,
    ratings: raw.map((r) => annotators.map((a) => r[a])),
    gold: raw.map(() => null),
    adjudicated: raw.map(() => null),
  });
  const looRate = quality.map((q) => q.looRate.value!);

  it('Dawid–Skene and MACE converge and aggregate every item to its majority label', () => {
    expect(ds.converged).toBe(true);
    expect(m.converged).toBe(true);
    const majorities = raw.map(majority);
    expect(ds.labels).toEqual(majorities);
    expect(m.labels).toEqual(majorities);
  });

  it("each annotator's Dawid–Skene accuracy Σ_k p_k·π_kk is within 0.01 of their leave-one-out agreement with the others", () => {
    const dsAccuracy = ds.confusion.map((rows) => rows.reduce((s, row, k) => s + ds.classPriors[k] * row.value![k], 0));
    dsAccuracy.forEach((a, j) => expect(Math.abs(a - looRate[j]), annotators[j]).toBeLessThan(0.01));
    // Annotator 3 is the most reliable and annotator 2 the least, by every measure.
    expect(rankOf(dsAccuracy)).toEqual([2, 0, 1]);
    expect(rankOf(looRate)).toEqual([2, 0, 1]);
    expect(rankOf(m.competence.map((c) => c.value!))).toEqual([2, 0, 1]);
  });

  it('skips the items where the other two disagree: leave-one-out uses only unique pluralities', () => {
    quality.forEach((q) => {
      expect(q.looNoOthers).toBe(0);
      expect(q.looN + q.looTied).toBe(999);
      expect(q.looTied).toBeGreaterThan(50);
    });
  });
});
