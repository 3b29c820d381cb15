import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certifyMean, prplEbConfidenceSequence, prplEbInitial, prplEbStep } from './index';

function feed(x: number[]) {
  let s = prplEbInitial();
  for (const v of x) s = prplEbStep(s, v).state;
  return s;
}

describe('PrPl-EB confidence sequence', () => {
  it('bounds stay in [0, 1], lower ≤ upper, and the running intersection never widens', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 300 }), (x) => {
        const cs = prplEbConfidenceSequence(x);
        let prev = { lower: 0, upper: 1 };
        let empty = false;
        for (const s of cs.steps) {
          expect(s.lowerRaw).toBeGreaterThanOrEqual(0);
          expect(s.upperRaw).toBeLessThanOrEqual(1);
          if (s.bounds.lower === null) {
            empty = true;
            continue;
          }
          expect(empty, 'an empty intersection stays empty').toBe(false);
          expect(s.bounds.lower).toBeLessThanOrEqual(s.bounds.upper);
          expect(s.bounds.lower).toBeGreaterThanOrEqual(prev.lower);
          expect(s.bounds.upper).toBeLessThanOrEqual(prev.upper);
          prev = s.bounds;
        }
      }),
    );
  });

  it('the first bet is the truncation ½ and the first 7 intervals are [0, 1] (STATS-2 §4.8)', () => {
    const cs = prplEbConfidenceSequence([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(cs.steps[0].lambda).toBe(0.5);
    for (let t = 0; t < 7; t++) expect(cs.steps[t].bounds).toEqual({ lower: 0, upper: 1 });
  });

  it('observations outside [0, 1] are input errors', () => {
    expect(() => prplEbConfidenceSequence([0.5, 1.2])).toThrow(RangeError);
    expect(() => prplEbConfidenceSequence([Number.NaN])).toThrow(RangeError);
  });

  it('certifies when the lower bound reaches the target and refutes when the upper bound falls below it', () => {
    const ones = feed(new Array(400).fill(1));
    expect(certifyMean(ones, 0.9)).toMatchObject({ decision: { value: 'certified' }, itemsNeeded: { value: 0 } });
    const zeros = feed(new Array(400).fill(0));
    expect(certifyMean(zeros, 0.5)).toMatchObject({ decision: { value: 'refuted' }, itemsNeeded: { value: 0 } });
    const changed = feed([...new Array(100).fill(0), ...new Array(150).fill(1)]);
    expect(certifyMean(changed, 0.5).decision).toEqual({ value: null, reason: 'empty_running_intersection' });
  });

  it('keep labelling: the projected count is what the projected path needs, and no more', () => {
    // 30 items, 29 agreeing: too few to certify 0.8 yet.
    const x = [...new Array(14).fill(1), 0, ...new Array(15).fill(1)];
    const c = certifyMean(feed(x), 0.8);
    expect(c.decision.value).toBe('keep_labelling');
    const k = c.itemsNeeded.value as number;
    expect(k).toBeGreaterThan(0);
    const rate = 29 / 30;
    const path = Array.from({ length: k }, (_, i) => Math.floor((i + 1) * rate + 0.5) - Math.floor(i * rate + 0.5));
    expect(certifyMean(feed([...x, ...path]), 0.8).decision.value).toBe('certified');
    expect(certifyMean(feed([...x, ...path.slice(0, -1)]), 0.8).decision.value).toBe('keep_labelling');
  });

  it('a target the observed rate never crosses has no projection within the horizon', () => {
    const half = feed(Array.from({ length: 40 }, (_, i) => i % 2));
    expect(certifyMean(half, 0.5, { horizon: 2000 }).itemsNeeded).toEqual({ value: null, reason: 'not_converged' });
  });
});
