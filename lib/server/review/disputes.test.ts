import { describe, expect, it } from 'vitest';
import { majorityLabel, needsAdjudication } from './disputes';

describe('what needs an adjudicator', () => {
  it('finds a strict majority only', () => {
    expect(majorityLabel(['win', 'win', 'tie'])).toBe('win');
    expect(majorityLabel(['win', 'tie'])).toBeNull();
    expect(majorityLabel(['win', 'tie', 'lose'])).toBeNull();
    expect(majorityLabel(['win', null, 'win'])).toBe('win');
  });

  it('sends every disagreement under agreed-or-adjudicated, and only a split without majority under majority', () => {
    expect(needsAdjudication(['tie', 'tie'], 'adjudicated')).toBe(false);
    expect(needsAdjudication(['win', 'win', 'tie'], 'adjudicated')).toBe(true);
    expect(needsAdjudication(['win', 'win', 'tie'], 'majority')).toBe(false);
    expect(needsAdjudication(['win', 'lose'], 'majority')).toBe(true);
    expect(needsAdjudication(['win', 'tie', 'lose'], 'majority')).toBe(true);
  });
});
