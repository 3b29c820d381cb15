/**
 * A rubric study's catalog: its dimensions in order, each with its own label set. A label is stored as a code (the
 * dimension's index, the label's index in its set: docs/decisions/0010-rubric-labels.md), so the catalog is fixed
 * once the study exists; these are the conversions between names and codes, with the one message for a name that
 * is not in the catalog. Pure: the browser may import it.
 */
import type { RubricDimensionDto } from '@/lib/server/review/dto';
import { invalid } from '@/lib/server/errors';
import {
  formatCatalogError,
  validateRubricCatalog,
  type CatalogResult,
  type RubricCatalog,
  type RubricDimension,
} from '@/lib/validation/rubric';
import { resolveRubricCatalog, RUBRIC_CATALOG_NAMES } from '@/lib/validation/rubric-catalogs';
import type { CatalogFacet } from '../facets/catalog';

/** A label as stored: the dimension's index and the label's index in the dimension's set. */
export type RubricCode = { dimension: number; label: number };

/** A rubric study's dimensions, in catalog order (fixed once the study exists: a label's code is its index). */
export function rubricCatalog(study: { criteria: unknown[] | null }): RubricDimension[] {
  return (study.criteria ?? []) as RubricDimension[];
}

/** The lenient name of each label code of a dimension (the label itself where the dimension folds nothing). */
export const lenientNames = (d: RubricDimension): string[] => d.labels.map((l) => d.lenient?.[l] ?? l);

export const dimensionDto = (d: RubricDimension): RubricDimensionDto => ({
  id: d.id,
  name: d.name,
  description: d.description ?? null,
  labels: [...d.labels],
});

/** Label codes → `{dimension id: label name}`, in catalog order. */
export function namesOf(catalog: readonly RubricDimension[], codes: readonly RubricCode[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of codes) {
    const d = catalog[c.dimension];
    if (d && d.labels[c.label] !== undefined) out[d.id] = d.labels[c.label];
  }
  return out;
}

/**
 * `{dimension id: label name}` → codes, every name checked against the catalog. Unknown dimensions and labels are
 * refused with the allowed ones named; with `complete`, every dimension must have a label.
 */
export function codesOf(catalog: readonly RubricDimension[], labels: Record<string, string>, complete: boolean): RubricCode[] {
  const fieldErrors: Record<string, string> = {};
  const codes: RubricCode[] = [];
  const ids = new Set(catalog.map((d) => d.id));
  for (const key of Object.keys(labels)) {
    if (!ids.has(key)) fieldErrors[key] = `is not a dimension of this study (${catalog.map((d) => d.id).join(', ')})`;
  }
  catalog.forEach((d, dimension) => {
    const name = labels[d.id];
    if (name === undefined) {
      if (complete) fieldErrors[d.id] = 'has no label yet';
      return;
    }
    const label = d.labels.indexOf(name.trim());
    if (label < 0) fieldErrors[d.id] = `"${name}" is not one of ${d.labels.join(', ')}`;
    else codes.push({ dimension, label });
  });
  if (Object.keys(fieldErrors).length) {
    const missing = Object.entries(fieldErrors).filter(([, m]) => m === 'has no label yet');
    const message =
      missing.length && missing.length === Object.keys(fieldErrors).length
        ? `Choose a label on every dimension; missing: ${missing.map(([k]) => k).join(', ')}.`
        : `Labels not accepted: ${Object.entries(fieldErrors)
            .map(([k, m]) => `${k} ${m}`)
            .join('; ')}.`;
    throw invalid(message, fieldErrors);
  }
  return codes;
}

/**
 * A rubric study's dimensions from what the lead gave: a shipped catalog's name, a catalog file's text, or the
 * parsed array. Every problem is reported, each naming its dimension and field (in `details.catalogErrors` for the
 * form, one line each in the message for the command line).
 */
export function dimensionsFrom(value: unknown): RubricCatalog {
  if (value === undefined || value === null || value === '') {
    throw invalid(`Choose the dimensions: a shipped catalog (${RUBRIC_CATALOG_NAMES.join(', ')}) or a JSON file of your own.`, {
      dimensions: 'Choose a catalog',
    });
  }
  const result: CatalogResult = typeof value === 'string' ? resolveRubricCatalog(value) : validateRubricCatalog(value);
  if (result.ok) return result.catalog;
  const lines = result.errors.map(formatCatalogError);
  throw invalid(
    `The dimensions catalog has ${lines.length} problem(s):\n${lines.map((l) => `  ${l}`).join('\n')}`,
    {
      dimensions: lines[0],
    },
    { catalogErrors: result.errors },
  );
}

/** A rubric study's catalog is its dimensions, chosen at creation and fixed from then on. */
export const rubricCatalogFacet: CatalogFacet = {
  defaultReviewers: 2,
  editable: { ok: false, refusal: "A rubric study's dimensions are fixed when it is created (they are its label sets)." },
  initial: (dimensions) => {
    const catalog = dimensionsFrom(dimensions);
    return { stored: catalog, audit: { dimensions: catalog.map((d) => d.id) } };
  },
  shown: (stored) => ({ criteria: [], dimensions: (stored ?? []) as RubricCatalog }),
};
