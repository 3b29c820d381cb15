/**
 * Every kind's import formats, for any caller that lists them: the format picker, the study overviews, the upload
 * check, the command line's usage. Pure (the browser imports it); each kind defines its list once in
 * `lib/kinds/<kind>/import-formats.ts`, and its readers are checked against that list by the compiler.
 */
import type { StudyKind } from '@/lib/validation/labels';
import type { ImportFormat, ImportFormatList, ImportPurpose } from './facets/import-formats';
import { FLOW_IMPORT_FORMATS } from './flow/import-formats';
import { PAIRWISE_IMPORT_FORMATS } from './pairwise/import-formats';
import { RUBRIC_IMPORT_FORMATS } from './rubric/import-formats';

export type { ImportFormat, ImportFormatList, ImportPurpose } from './facets/import-formats';

export const IMPORT_FORMAT_LISTS = {
  flow_review: FLOW_IMPORT_FORMATS,
  pairwise: PAIRWISE_IMPORT_FORMATS,
  rubric: RUBRIC_IMPORT_FORMATS,
} as const satisfies Record<StudyKind, ImportFormatList>;

/** The formats a kind of study imports, per purpose (an empty list: it does not import that). */
export function importFormatsOf(kind: StudyKind): ImportFormatList {
  return IMPORT_FORMAT_LISTS[kind];
}

/** The format ids of one purpose; `upload`: only those a web upload can carry. */
export function formatIdsOf(kind: StudyKind, purpose: ImportPurpose, opts: { upload?: boolean } = {}): string[] {
  const formats: readonly ImportFormat[] = importFormatsOf(kind)[purpose];
  return formats.filter((f) => !(opts.upload && f.commandLineOnly)).map((f) => f.id);
}

/** One format of a kind, or undefined when the kind does not read it for that purpose. */
export function findImportFormat(kind: StudyKind, purpose: ImportPurpose, id: string): ImportFormat | undefined {
  return importFormatsOf(kind)[purpose].find((f: ImportFormat) => f.id === id);
}

/** The kinds that import anything for `purpose`, in registry order. */
export function kindsImporting(purpose: ImportPurpose): StudyKind[] {
  return (Object.keys(IMPORT_FORMAT_LISTS) as StudyKind[]).filter((k) => IMPORT_FORMAT_LISTS[k][purpose].length > 0);
}

/**
 * A format by its id, whichever kind reads it for `purpose`: a format id means the same file in every kind that
 * reads it, so the format picker, which is handed ids, names them from here.
 */
export function importFormat(purpose: ImportPurpose, id: string): ImportFormat | undefined {
  for (const list of Object.values(IMPORT_FORMAT_LISTS) as ImportFormatList[]) {
    const f = list[purpose].find((g) => g.id === id);
    if (f) return f;
  }
  return undefined;
}
