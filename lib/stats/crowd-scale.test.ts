import { describe, expect, it } from 'vitest';
import { dawidSkene } from './dawid-skene';
import { mace } from './mace';
import { createRng } from './random';

/*
 * Crowd imports carry hundreds of raters per item (issue 27). With 1500 raters an item's likelihood, a product
 * of 1500 per-rater probabilities, is below e^−745, which is 0 in double precision, so a direct product would give
 * 0/0 posteriors: the EM must work in log space (STATS-3 §2.3 step 3) to give a defined posterior at all.
 */
describe('many raters per item', () => {
  const rng = createRng(27);
  const labels = ['Lose', 'Tie', 'Win'];
  const nItems = 20;
  const nRaters = 1500;
  const truth = Array.from({ length: nItems }, (_, i) => i % 3);
  const annotators = Array.from({ length: nRaters }, (_, j) => `r${j}`);
  const items = truth.map((_, i) => `i${i}`);
  // Each rater is right with probability 0.6 and otherwise answers one of the other two labels at random.
  const annotations = truth.flatMap((t, i) =>
    annotators.map((a) => {
      const right = rng.nextFloat() < 0.6;
      const label = right ? t : (t + 1 + rng.nextInt(2)) % 3;
      return [items[i], a, labels[label]] as const;
    }),
  );
  const data = { labels, annotators, items, annotations };

  it('Dawid–Skene gives finite posteriors and recovers every true label with 1500 raters', () => {
    const r = dawidSkene(data);
    expect(r.converged).toBe(true);
    expect(Number.isFinite(r.logLikelihood)).toBe(true);
    // The mean item log-likelihood is below ln(smallest double), so some item's product would underflow to 0.
    expect(r.logLikelihood / nItems).toBeLessThan(-745);
    expect(r.posteriors.flat().every(Number.isFinite)).toBe(true);
    expect(r.labels).toEqual(truth);
  });

  it('MACE gives finite posteriors and recovers every true label with 1500 raters', () => {
    const r = mace(data);
    expect(r.converged).toBe(true);
    expect(r.logMarginalLikelihood / nItems).toBeLessThan(-745);
    expect(r.posteriors.flat().every(Number.isFinite)).toBe(true);
    expect(r.labels).toEqual(truth);
  });
});
