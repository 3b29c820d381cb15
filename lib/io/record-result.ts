import type { ImportError } from '@/lib/validation/import-errors';

/**
 * One record of an import source: its value, or every problem found in it.
 * `line` is the 1-based line of a JSONL file or the 1-based record of a JSON
 * array; 0 means the file as a whole.
 */
export type RecordResult<T> =
  | { line: number; ok: true; value: T }
  | {
      line: number;
      ok: false;
      errors: ImportError[];
      /** Set when the record is readable but its verdict is not: the importer leaves it out and lists it, instead of refusing the file. */
      unreadableVerdict?: {
        item: string;
        /** The one criterion or dimension that could not be read, when the record's other verdicts were readable. */
        criterion?: string;
      };
    };

export function failure(line: number, path: string, message: string): RecordResult<never> {
  return { line, ok: false, errors: [{ line, path, message }] };
}
