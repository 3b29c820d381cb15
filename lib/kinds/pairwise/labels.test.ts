import { describe, expect, it } from 'vitest';
import { LABELS as SCHEMA_LABELS } from '@/db/schema/annotations';
import { LABELS } from '@/lib/validation/labels';
import { PAIRWISE_LABELS, pairwiseLabels } from './labels';

describe('the pairwise label set', () => {
  it('is the one every layer uses: validation derives it, the schema’s column enum spells the same list', () => {
    expect(LABELS).toBe(PAIRWISE_LABELS);
    expect([...SCHEMA_LABELS]).toEqual([...PAIRWISE_LABELS]);
  });

  it('packs as 3 · criterion + label and splits back', () => {
    for (const criterion of [0, 1, 7, 8999])
      for (let label = 0; label < PAIRWISE_LABELS.length; label++) {
        const v = 3 * criterion + label;
        expect([pairwiseLabels.packedUnit(v), pairwiseLabels.packedLabel(v)]).toEqual([criterion, label]);
      }
  });
});
