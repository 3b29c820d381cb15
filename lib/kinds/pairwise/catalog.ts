import { invalid } from '@/lib/server/errors';
import { DEFAULT_CRITERIA } from '@/lib/validation/default-criteria';
import type { Criterion } from '@/lib/validation/pairwise';
import type { CatalogFacet } from '../facets/catalog';

/** Refuses dimensions for a kind that has none (pairwise, flow review). */
export function noDimensions(dimensions: unknown): void {
  if (dimensions !== undefined && dimensions !== '') {
    throw invalid('Only rubric studies have dimensions.', { dimensions: 'Only for rubric studies' });
  }
}

/** A pairwise study starts with the default criteria catalog, which the lead may change while it is a draft. */
export const pairwiseCatalog: CatalogFacet = {
  defaultReviewers: 2,
  editable: { ok: true },
  initial: (dimensions) => {
    noDimensions(dimensions);
    return { stored: [...DEFAULT_CRITERIA] };
  },
  shown: (stored) => ({ criteria: (stored ?? []) as Criterion[], dimensions: null }),
};
