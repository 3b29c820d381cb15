/**
 * The import formats a kind of study reads, as data: pure (no reader, no database), so the browser's format picker,
 * the study overviews, the upload check and the command line all list the same formats from one place. The readers
 * that go with each format are in the kind's imports facet (`lib/kinds/facets/imports.ts`).
 */

/** What an import brings into a study. */
export type ImportPurpose = 'items' | 'annotations' | 'judge';

export type ImportFormat = {
  /** The `--format` / `?format=` value. */
  readonly id: string;
  /** How the format picker names it. */
  readonly name: string;
  /** What the file is, in one line. */
  readonly description: string;
  /**
   * Set when a web upload cannot carry the format (it is read from a dataset's directory): it is imported with the
   * command line only, and this says why.
   */
  readonly commandLineOnly?: string;
  /** Items in this format carry prior annotations, read from the same file with the annotation format of this id. */
  readonly bringsAnnotations?: true;
  /** Judge files in this format hold several judges: the judge name given with the import picks one, rather than naming the run. */
  readonly judgeInFile?: true;
};

/** A kind's formats per purpose; an empty list: the kind does not import that. */
export type ImportFormatList = { readonly [P in ImportPurpose]: readonly ImportFormat[] };

/** The ids of a list of formats, as a union type (for reader tables keyed by format). */
export type FormatId<L extends readonly ImportFormat[]> = L[number]['id'];
