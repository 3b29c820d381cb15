import { describe, expect, it } from 'vitest';
import { MAX_LABELS } from '@/lib/server/ground-truth/rule';
import { rubricLabels } from './labels';

describe('the rubric label codec', () => {
  it('packs as 16 · dimension + label for every label a dimension may have, and splits back', () => {
    expect(MAX_LABELS).toBe(16);
    for (const dimension of [0, 1, 5, 63])
      for (let label = 0; label < MAX_LABELS; label++) {
        const v = 16 * dimension + label;
        expect([rubricLabels.packedUnit(v), rubricLabels.packedLabel(v)]).toEqual([dimension, label]);
      }
  });
});
