import { describe, expect, it } from 'vitest';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import type { ScreenChoice } from './dto';

/*
 * The display order of a pairwise item: what a reviewer pressed, turned to reply a's side and back, and the
 * adjudicator's order. The other blinding tests are beside this file, one concern each (`blinding-*.test.ts`).
 */

describe('display order', () => {
  it('maps what a person pressed to reply a’s side and back', () => {
    expect(toCanonical('r1', false)).toBe('win');
    expect(toCanonical('r1', true)).toBe('lose');
    expect(toCanonical('r2', false)).toBe('lose');
    expect(toCanonical('r2', true)).toBe('win');
    expect(toCanonical('tie', true)).toBe('tie');
    for (const swapped of [false, true])
      for (const c of ['r1', 'tie', 'r2'] as ScreenChoice[]) expect(toScreen(toCanonical(c, swapped), swapped)).toBe(c);
  });

  it('gives adjudicators a stable order that varies across items', () => {
    expect(adjudicatorSwapped(5, 10, 3)).toBe(adjudicatorSwapped(5, 10, 3));
    const share = Array.from({ length: 1000 }, (_, i) => adjudicatorSwapped(5, i, 3)).filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });
});
