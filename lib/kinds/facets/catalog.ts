/**
 * What a study of the kind judges items on, as the study stores it (`studies.criteria`): a pairwise study's
 * criteria (editable while a draft), a rubric study's dimensions (fixed at creation, docs/decisions/0010), nothing
 * for flow review. The study use-cases (`lib/server/studies/studies.ts`) ask the kind instead of branching on it.
 * Pure: the browser may import a kind's catalog module.
 */
import type { Criterion } from '@/lib/validation/pairwise';
import type { RubricCatalog } from '@/lib/validation/rubric';

export interface CatalogFacet {
  /** Reviewers per item when the lead names no number (agreement needs two). */
  defaultReviewers: number;
  /**
   * Whether a lead may replace the catalog while the study is a draft (`setStudyCriteria`): a pairwise study's
   * criteria, yes; a rubric study's dimensions are fixed at creation (decision 0010); flow review has none. `refusal`
   * is what a lead is told otherwise.
   */
  editable: { ok: true } | { ok: false; refusal: string };
  /**
   * The catalog a new study stores, from what the lead gave for `dimensions` (an `invalid` error if the kind takes
   * none and some were given, or if they are wrong); `audit` is what the creation's audit entry records of it.
   */
  initial(dimensions: unknown): { stored: unknown[] | null; audit?: Record<string, unknown> };
  /** The stored catalog as the study's DTO shows it: `criteria` or `dimensions`, never both. */
  shown(stored: unknown[] | null): { criteria: Criterion[]; dimensions: RubricCatalog | null };
}
