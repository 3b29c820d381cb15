import * as z from 'zod';

// In the browser, schemas are built without zod's compiled fast path: deciding whether it may compile one, zod
// tries `new Function`, which Concord's Content-Security-Policy (no 'unsafe-eval') reports as a violation even
// though the attempt is caught. The schemas that import this module are built after this line runs.
if (typeof window !== 'undefined') z.config({ jitless: true });

/**
 * Building blocks shared by the item, label and decision schemas.
 *
 * Text is validated but never rewritten (no trimming): an item's content is
 * hashed to detect re-imports, and what reviewers see must be what was imported.
 */

/** A string with at least one non-whitespace character. */
export const nonEmptyText = z.string().refine((s) => s.trim().length > 0, {
  error: 'must be a non-empty string',
});

// C0 controls and DEL; ids end up in URLs, CSV cells and log lines.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * A stable external id as it appears in an import file (items, materials,
 * annotators, judges). Surrounding whitespace is rejected rather than trimmed
 * so that `"a"` and `"a "` can never silently become two different items.
 */
export function externalId(maxLength: number) {
  return z
    .string()
    .min(1)
    .max(maxLength)
    .refine((s) => s.length === 0 || s.trim() === s, {
      error: 'must not start or end with whitespace',
    })
    .refine((s) => !CONTROL_CHARS.test(s), { error: 'must not contain control characters' });
}

/**
 * The highest page number a paged list accepts from a URL: far beyond any study's lists, and far below where an
 * offset (page × page size) stops being an integer SQLite can bind.
 */
export const MAX_PAGE = 1_000_000;

/** A page number as a URL gives it: blank is the first page; anything else a whole number from 1 to MAX_PAGE. */
export const pageNumberSchema = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.coerce
    .number({ error: 'must be a page number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be 1 or more' })
    .max(MAX_PAGE, { error: `must be at most ${MAX_PAGE.toLocaleString('en')}` })
    .optional(),
);

export const ITEM_ID_MAX = 200;
export const itemIdSchema = externalId(ITEM_ID_MAX);

/** Criterion ids: lowercase snake case, so they are safe as JSON keys, CSV headers and URL segments. */
export const CRITERION_ID_PATTERN = /^[a-z][a-z0-9_]*$/;
export const CRITERION_ID_MAX = 64;
export const criterionIdSchema = z
  .string()
  .max(CRITERION_ID_MAX)
  .refine((s) => CRITERION_ID_PATTERN.test(s), {
    error: 'must start with a lowercase letter and contain only lowercase letters, digits and _',
  });

/** The verdict every pairwise item has, whatever the catalog. */
export const OVERALL = 'overall';
