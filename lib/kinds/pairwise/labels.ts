import type { LabelsFacet } from '../facets/labels';

/**
 * The pairwise label set, defined here once: always from reply `a`'s side, in ordinal order (lose < tie < win).
 * `lib/validation/labels.ts` (`LABELS`) and through it the schema, zod and the screens derive from it.
 */
export const PAIRWISE_LABELS = ['lose', 'tie', 'win'] as const;

/** A pairwise label packs as 3 · criterion code + label (lose 0, tie 1, win 2), the criterion by `criterion_codes`. */
export const pairwiseLabels: LabelsFacet = {
  packedUnit: (v) => (v / PAIRWISE_LABELS.length) | 0,
  packedLabel: (v) => v % PAIRWISE_LABELS.length,
};
