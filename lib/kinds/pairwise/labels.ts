import type { LabelsFacet } from '../facets/labels';

/** A pairwise label packs as 3 · criterion code + label (lose 0, tie 1, win 2), the criterion by `criterion_codes`. */
export const pairwiseLabels: LabelsFacet = {
  packedUnit: (v) => (v / 3) | 0,
  packedLabel: (v) => v % 3,
};
