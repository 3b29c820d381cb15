import 'server-only';
import type { StudyRow } from '@/db/queries/studies';
import { findImportFormat, formatIdsOf, kindsImporting, type ImportFormat, type ImportPurpose } from '@/lib/kinds/import-formats';
import { invalid } from '../errors';

/* The one check of an import's format, for every kind and purpose, against the kind's list (lib/kinds/import-formats.ts). */

const WHAT: Record<ImportPurpose, { noun: string; sentence: string }> = {
  items: { noun: 'items', sentence: 'Items' },
  annotations: { noun: 'prior annotations', sentence: 'Prior annotations' },
  judge: { noun: 'judge runs', sentence: 'Judge labels' },
};

/** The format `format` of the study's kind for `purpose`; refused, naming the formats there are, when it has none such. */
export function importFormatFor(study: Pick<StudyRow, 'kind'>, purpose: ImportPurpose, format: string): ImportFormat {
  const ids = formatIdsOf(study.kind, purpose);
  if (ids.length === 0) {
    const kinds = kindsImporting(purpose);
    throw invalid(`${WHAT[purpose].sentence} can only be imported into a ${kinds.join(' or ')} study.`);
  }
  const found = findImportFormat(study.kind, purpose, format);
  if (!found) {
    throw invalid(`Unknown format "${format}" for ${WHAT[purpose].noun} of a ${study.kind} study; use one of: ${ids.join(', ')}.`, {
      format: 'Unknown format',
    });
  }
  return found;
}
