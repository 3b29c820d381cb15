/*
 * "The newest revision counts", written once for every query. Annotations and rulings are never overwritten: a
 * change appends a revision (docs/decisions/0017), so every reader of what counts now asks for the highest one.
 * These are SQL fragments to put in a query's WHERE or JOIN … ON, with the aliases the query gives its tables.
 */

/** The newest revision number of the annotations of assignment alias `assignment` (a scalar subquery). */
export const newestAnnotationRevision = (assignment = 'a') =>
  `(SELECT max(revision) FROM annotations WHERE assignment_id = ${assignment}.id)`;

/** Annotation alias `annotation` is the newest revision of assignment alias `assignment`. */
export const isNewestAnnotation = (annotation = 'an', assignment = 'a') =>
  `${annotation}.revision = ${newestAnnotationRevision(assignment)}`;

const RULING_UNIT = { adjudications: 'criterion', rubric_adjudications: 'dimension' } as const;

/** Ruling alias `ruling` (of `table`) is the newest revision on its item and unit (criterion or dimension). */
export const isNewestRuling = (table: keyof typeof RULING_UNIT, ruling = 'j') => {
  const unit = RULING_UNIT[table];
  return `${ruling}.revision = (SELECT max(revision) FROM ${table} WHERE item_id = ${ruling}.item_id AND ${unit} = ${ruling}.${unit})`;
};
