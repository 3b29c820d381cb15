import { describe, expect, it } from 'vitest';
import { activeMean, drawLabelledItems, labellingProbabilities } from './active-inference';

/* What the vectors (which take ξ as input) leave to the app: drawing ξ from π before any label is seen. */
describe('drawLabelledItems', () => {
  const pi = labellingProbabilities(
    Array.from({ length: 2000 }, (_, i) => (i % 4) / 8),
    0.2,
    0.3,
  );

  it('is the same draw for the same seed and a different one for another seed', () => {
    expect(drawLabelledItems(pi, 11)).toEqual(drawLabelledItems(pi, 11));
    expect(drawLabelledItems(pi, 12)).not.toEqual(drawLabelledItems(pi, 11));
  });

  it('labels each item with its probability: about b·n labels, more where the judge is unsure', () => {
    const xi = drawLabelledItems(pi, 11);
    const labelled = xi.reduce((a, b) => a + b, 0);
    // Σπ = b·n = 400 (no clipping here); the SD of the count is below 20.
    expect(pi.reduce((a, b) => a + b, 0)).toBeCloseTo(400, 9);
    expect(Math.abs(labelled - 400)).toBeLessThan(60);
    // ū = 3/16: u = 0 items get only the floor τ·b = 0.06; u = 3/8 items get 0.7·(0.2/0.1875)·0.375 + 0.06 = 0.34.
    const share = (u: number) => {
      const idx = pi.map((_, i) => i).filter((i) => i % 4 === u);
      return idx.reduce((a, i) => a + xi[i], 0) / idx.length;
    };
    expect(pi[0]).toBeCloseTo(0.06, 12);
    expect(pi[3]).toBeCloseTo(0.34, 12);
    expect(Math.abs(share(0) - 0.06)).toBeLessThan(0.03);
    expect(Math.abs(share(3) - 0.34)).toBeLessThan(0.07);
  });

  it('feeds activeMean: a judge right wherever it is sure, with every unsure item labelled, gives the exact mean label', () => {
    const yhat = Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? 0.5 : i % 2));
    const y = yhat.map((p, i) => (p === 0.5 ? (i % 3 === 0 ? 1 : 0) : p));
    const pAct = labellingProbabilities(
      yhat.map((p) => Math.min(p, 1 - p)),
      0.25,
      0.2,
    );
    // ū = 0.1: an unsure item has 0.8·(0.25/0.1)·0.5 + 0.05 = 1.05, clipped to 1; a sure one the floor 0.05.
    expect(new Set(pAct.filter((_, i) => yhat[i] === 0.5))).toEqual(new Set([1]));
    const xiActive = drawLabelledItems(pAct, 5);
    const xiUniform = drawLabelledItems(
      yhat.map(() => 0.25),
      6,
    );
    const r = activeMean({
      yhat,
      budget: 0.25,
      tau: 0.2,
      xiActive,
      xiUniform,
      y: y.map((v, i) => (xiActive[i] || xiUniform[i] ? v : null)),
    });
    // Every term Δ_i equals y_i, whatever was drawn for the sure items.
    expect(r.active.estimate.value).toBeCloseTo(y.reduce((a, b) => a + b, 0) / y.length, 12);
    expect(r.active.se.value).toBeGreaterThan(0);
  });

  it('refuses a probability of 0, which no draw could ever label', () => {
    expect(() => drawLabelledItems([0.5, 0], 1)).toThrow(/not in \(0, 1\]/);
  });
  it('takes stored probabilities instead of recomputing them, π = 1 giving the label itself', () => {
    const yhat = [0.9, 0.2, 0.6, 0.5];
    const y = [1, 0, 0, null];
    const pi = [1, 0.5, 0.25, 0.5];
    const xi = [1, 1, 1, 0];
    const r = activeMean({ yhat, budget: 0.5, tau: 0.5, xiActive: xi, xiUniform: [0, 0, 0, 0], y, pi });
    expect(r.pi).toEqual(pi);
    // Δ = (1, 0.2 + (0 − 0.2)/0.5, 0.6 + (0 − 0.6)/0.25, 0.5) = (1, −0.2, −1.8, 0.5).
    expect(r.active.estimate.value).toBeCloseTo((1 - 0.2 - 1.8 + 0.5) / 4, 12);
    expect(() => activeMean({ yhat, budget: 0.5, tau: 0.5, xiActive: xi, xiUniform: [0, 0, 0, 0], y, pi: [1, 0, 1, 1] })).toThrow(
      /probability 0/,
    );
    expect(() => activeMean({ yhat, budget: 0.5, tau: 0.5, xiActive: xi, xiUniform: [0, 0, 0, 0], y, pi: [1, 1] })).toThrow(/pi has 2/);
  });
});
