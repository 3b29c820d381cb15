import 'server-only';
import { type StudyRow } from '@/db/queries/studies';
import { type RubricCatalog, rubricCatalogSchema } from '@/lib/validation/rubric';
import { invalid } from '../errors';

/* The name ↔ code tables every rubric import writes labels through (docs/decisions/0010-rubric-labels.md). */

/** The study's catalog as it was fixed at creation. */
export function studyCatalog(study: StudyRow): RubricCatalog {
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

export function oneOf<T extends string>(formats: readonly T[], format: string, what: string): T {
  if (!(formats as readonly string[]).includes(format)) {
    throw invalid(`Unknown format "${format}" for ${what} of a rubric study; use one of: ${formats.join(', ')}.`, {
      format: 'Unknown format',
    });
  }
  return format as T;
}
