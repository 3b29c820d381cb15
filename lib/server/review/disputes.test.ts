import { describe, expect, it } from 'vitest';
import { decideLabels } from '../ground-truth/rule';
import { needsAdjudication } from './disputes';

describe('what needs an adjudicator', () => {
  it('finds a strict majority only', () => {
    const majority = (labels: ('win' | 'tie' | 'lose' | null)[]) => decideLabels(labels, null, 'majority').label;
    expect(majority(['win', 'win', 'tie'])).toBe('win');
    expect(majority(['win', 'tie'])).toBeNull();
    expect(majority(['win', 'tie', 'lose'])).toBeNull();
    expect(majority(['win', null, 'win'])).toBe('win');
  });

  it('sends every disagreement under agreed-or-adjudicated, and only a split without majority under majority', () => {
    expect(needsAdjudication(['tie', 'tie'], 'adjudicated')).toBe(false);
    expect(needsAdjudication(['win', 'win', 'tie'], 'adjudicated')).toBe(true);
    expect(needsAdjudication(['win', 'win', 'tie'], 'majority')).toBe(false);
    expect(needsAdjudication(['win', 'lose'], 'majority')).toBe(true);
    expect(needsAdjudication(['win', 'tie', 'lose'], 'majority')).toBe(true);
  });
});
