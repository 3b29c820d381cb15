/**
 * What a kind's ground-truth export has of its own (`exportGroundTruth`, lib/server/ground-truth/ground-truth.ts):
 * the columns that name a row and its label, before the columns every kind shares (provenance, the model's
 * posterior, one column per reviewer, the adjudicator and the ruling's rationale), which the core writes once.
 * A kind without ground truth (flow review) has no facet: its export is refused with one message.
 */

/** One column: its CSV header, its key in a JSONL line, and its value on a row (null: empty in CSV, null in JSON). */
export type GroundTruthColumn<R> = {
  csv: string;
  json: string;
  // A method, so a kind's columns typed on its own row are columns of `object` (the core's rows are the kind's).
  value(row: R): string | null;
};

export interface GroundTruthFacet {
  /** The kind's leading columns, in their order. */
  columns: readonly GroundTruthColumn<object>[];
}

/** A kind's columns, typed on its own row for the kind and erased for the core (which passes back the kind's rows). */
export const groundTruthColumns = <R extends object>(columns: readonly GroundTruthColumn<R>[]): readonly GroundTruthColumn<object>[] =>
  columns as readonly GroundTruthColumn<object>[];
