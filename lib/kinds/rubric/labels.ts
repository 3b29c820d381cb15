import type { LabelsFacet } from '../facets/labels';

/** A rubric label packs as 16 · dimension + label: the dimension's index in the catalog, the label's in its set. */
export const rubricLabels: LabelsFacet = {
  packedUnit: (v) => v >> 4,
  packedLabel: (v) => v & 15,
};
