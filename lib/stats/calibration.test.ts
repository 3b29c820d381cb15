import { describe, expect, it } from 'vitest';
import { calibration } from './calibration';

/* What the vectors leave out: no item at all (STATS-3 §5.3, "N = 0: every output null"). */
describe('calibration without items', () => {
  it('gives every figure as null with no_items, not an ECE of 0 that would read as perfect calibration', () => {
    const r = calibration({ labels: ['No', 'Yes'], gold: [], predicted: [], confidence: [] }, { nBins: 5 });
    expect(r.n).toBe(0);
    for (const figure of [
      r.accuracy,
      r.meanConfidence,
      r.brierTopLabel,
      r.brierMulticlass,
      r.ece,
      r.reliability,
      r.adaptiveEdges,
      r.adaptiveEce,
      r.adaptiveReliability,
    ]) {
      expect(figure).toEqual({ value: null, reason: 'no_items' });
    }
  });
});
