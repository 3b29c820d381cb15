import type * as z from 'zod';
import { zodIssuesToImportErrors, type ImportError } from '@/lib/validation/import-errors';
import {
  rubricAnnotationLineSchema,
  rubricItemSchema,
  rubricJudgeLineSchema,
  type RubricAnnotationLine,
  type RubricCatalog,
  type RubricItem,
  type RubricJudgeLine,
} from '@/lib/validation/rubric';
import type { RubricCatalogName } from '@/lib/validation/rubric-catalogs';
import { readJsonlSync } from './jsonl';
import type { RecordResult } from './record-result';
import { mrbenchGoldAnnotations, mrbenchItems } from './adapters/mrbench';
import { evalkitItems, evalkitJudgeLines } from './adapters/aitutor-evalkit';

/*
 * The sources of a rubric study's imports, as streams of validated records
 * (see records.ts for the numbering rules). Annotation and judge labels are
 * checked against the study's catalog.
 *
 * Adapter records number by their dialogue's position in the JSON array, and
 * one dialogue yields several replies, so messages name the item too:
 * "record 12 (item 4642-…-Sonnet), labels.actionability: …".
 */

export const RUBRIC_ITEM_FORMATS = ['concord', 'mrbench', 'mrbench-v1', 'aitutor-evalkit'] as const;
export const RUBRIC_ANNOTATION_FORMATS = ['concord', 'mrbench', 'mrbench-v1'] as const;
export const RUBRIC_JUDGE_FORMATS = ['concord', 'aitutor-evalkit'] as const;
export type RubricItemFormat = (typeof RUBRIC_ITEM_FORMATS)[number];

/** The shipped catalog each public format's labels are written in. */
export const RUBRIC_FORMAT_CATALOG: Record<Exclude<RubricItemFormat, 'concord'>, RubricCatalogName> = {
  mrbench: 'mrbench-v3',
  'mrbench-v1': 'mrbench-v1',
  'aitutor-evalkit': 'mrbench-v3',
};

function subjectOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as { id?: unknown; item?: unknown };
  const s = typeof v.item === 'string' ? v.item : typeof v.id === 'string' ? v.id : null;
  return s;
}

function recordMessage(e: ImportError, subject: string | null): ImportError {
  if (e.line === 0) return e;
  const who = `record ${e.line}${subject ? ` (item ${subject})` : ''}`;
  return { ...e, message: `${who}${e.path ? `, ${e.path}` : ''}: ${e.message}` };
}

function* validated<T>(
  schema: z.ZodType<T>,
  results: Iterable<RecordResult<unknown>>,
  numbering: 'line' | 'record',
): Generator<RecordResult<T>> {
  for (const r of results) {
    if (r.ok) {
      const parsed = schema.safeParse(r.value, { reportInput: true });
      if (parsed.success) {
        yield { line: r.line, ok: true, value: parsed.data };
        continue;
      }
      const errors = zodIssuesToImportErrors(r.line, parsed.error);
      const subject = subjectOf(r.value);
      yield { line: r.line, ok: false, errors: numbering === 'line' ? errors : errors.map((e) => recordMessage(e, subject)) };
    } else {
      yield numbering === 'line' ? r : { ...r, errors: r.errors.map((e) => recordMessage(e, r.unreadableVerdict?.item ?? null)) };
    }
  }
}

function* jsonlValues(path: string): Generator<RecordResult<unknown>> {
  for (const r of readJsonlSync(path)) yield r.ok ? r : { line: r.line, ok: false, errors: [r.error] };
}

/** Rubric items from a Concord JSONL file, an MRBench V3 or V1 file, or an AITutor-EvalKit file. */
export function rubricItemRecords(path: string, format: RubricItemFormat): Generator<RecordResult<RubricItem>> {
  switch (format) {
    case 'concord':
      return validated(rubricItemSchema, jsonlValues(path), 'line');
    case 'mrbench':
    case 'mrbench-v1':
      return validated(rubricItemSchema, mrbenchItems(path), 'record');
    case 'aitutor-evalkit':
      return validated(rubricItemSchema, evalkitItems(path), 'record');
    default:
      throw new Error(`Unknown rubric item format "${format as string}"; use ${RUBRIC_ITEM_FORMATS.join(', ')}.`);
  }
}

/** Prior annotations from a Concord JSONL file, or MRBench's published labels (annotator `mrbench-gold`). */
export function rubricAnnotationRecords(
  path: string,
  format: (typeof RUBRIC_ANNOTATION_FORMATS)[number],
  catalog: RubricCatalog,
): Generator<RecordResult<RubricAnnotationLine>> {
  const schema = rubricAnnotationLineSchema(catalog);
  switch (format) {
    case 'concord':
      return validated(schema, jsonlValues(path), 'line');
    case 'mrbench':
    case 'mrbench-v1':
      return validated(schema, mrbenchGoldAnnotations(path), 'record');
    default:
      throw new Error(`Unknown rubric annotation format "${format as string}"; use ${RUBRIC_ANNOTATION_FORMATS.join(', ')}.`);
  }
}

/**
 * Judge lines from a Concord JSONL file or an AITutor-EvalKit predictions
 * file. For EvalKit, `judgeName` picks the judge inside the file (default: the
 * one the file is named after). Unreadable verdicts are failures marked
 * `unreadableVerdict`.
 */
export function rubricJudgeRecords(
  path: string,
  format: (typeof RUBRIC_JUDGE_FORMATS)[number],
  catalog: RubricCatalog,
  judgeName?: string,
): Generator<RecordResult<RubricJudgeLine>> {
  const schema = rubricJudgeLineSchema(catalog);
  switch (format) {
    case 'concord':
      return validated(schema, jsonlValues(path), 'line');
    case 'aitutor-evalkit':
      return validated(schema, evalkitJudgeLines(path, catalog, judgeName), 'record');
    default:
      throw new Error(`Unknown rubric judge format "${format as string}"; use ${RUBRIC_JUDGE_FORMATS.join(', ')}.`);
  }
}
