import { type StudyRow } from '@/db/queries/studies';
import { type RubricCatalog, rubricCatalogSchema } from '@/lib/validation/rubric';

/* The name ↔ code tables every rubric label is written and read through (docs/decisions/0010-rubric-labels.md). */

/** The study's catalog as it was fixed at creation. */
export function studyCatalog(study: Pick<StudyRow, 'criteria'>): RubricCatalog {
  return rubricCatalogSchema.parse(study.criteria);
}

/** Name ↔ code tables of a catalog. */
export function codebook(catalog: RubricCatalog) {
  const dims = new Map(catalog.map((d, i) => [d.id, { index: i, labels: new Map(d.labels.map((l, j) => [l, j])) }]));
  return {
    code(dimension: string, label: string): [number, number] {
      const d = dims.get(dimension);
      const l = d?.labels.get(label);
      // The record readers checked both against this catalog already.
      if (d === undefined || l === undefined) throw new Error(`"${dimension}": "${label}" is not in the study's catalog`);
      return [d.index, l];
    },
    names(rows: { dimension: number; label: number }[]): Record<string, string> {
      return Object.fromEntries(rows.map((r) => [catalog[r.dimension].id, catalog[r.dimension].labels[r.label]]));
    },
  };
}
