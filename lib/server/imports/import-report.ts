import type { ImportError } from '@/lib/validation/import-errors';
import { DomainError } from '../errors';

/** How many bad lines a report lists; the count covers all of them. */
export const MAX_REPORTED_ERRORS = 500;

export class ImportRejected extends DomainError {
  constructor(
    readonly errors: ImportError[],
    readonly errorCount: number,
  ) {
    super('invalid', `The file was refused: ${errorCount} problem${errorCount === 1 ? '' : 's'} found. Nothing was imported.`, undefined, {
      errors,
      errorCount,
    });
  }
}

/** Gathers every problem of a file, keeping the first MAX_REPORTED_ERRORS for the report. */
export class ErrorCollector {
  readonly errors: ImportError[] = [];
  errorCount = 0;

  add = (e: ImportError) => {
    this.errorCount++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(e);
  };
}
