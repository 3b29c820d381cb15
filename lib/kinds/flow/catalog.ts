import type { Criterion } from '@/lib/validation/pairwise';
import type { CatalogFacet } from '../facets/catalog';
import { noDimensions } from '../pairwise/catalog';

/** A flow review judges a whole flow with one decision: no catalog, one reviewer per flow unless the lead asks. */
export const flowCatalog: CatalogFacet = {
  defaultReviewers: 1,
  editable: { ok: false, refusal: 'A flow review study has no criteria: its reviewers verify, truncate or discard whole flows.' },
  initial: (dimensions) => {
    noDimensions(dimensions);
    return { stored: null };
  },
  shown: (stored) => ({ criteria: (stored ?? []) as Criterion[], dimensions: null }),
};
