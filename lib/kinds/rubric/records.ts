/*
 * The readers of a rubric study's import formats, one per format id of `import-formats.ts` (the compiler holds the
 * two together). Annotation and judge labels are checked against the study's catalog. No database here.
 */
import { evalkitItems, evalkitJudgeLines } from '@/lib/io/adapters/aitutor-evalkit';
import { mrbenchGoldAnnotations, mrbenchItems } from '@/lib/io/adapters/mrbench';
import type { RecordResult } from '@/lib/io/record-result';
import { concordRecords, readerFor, validated } from '@/lib/io/records';
import {
  rubricAnnotationLineSchema,
  rubricItemSchema,
  rubricJudgeLineSchema,
  type RubricAnnotationLine,
  type RubricCatalog,
  type RubricItem,
  type RubricJudgeLine,
} from '@/lib/validation/rubric';
import type { FormatId } from '../facets/import-formats';
import { RUBRIC_IMPORT_FORMATS } from './import-formats';

type Formats = typeof RUBRIC_IMPORT_FORMATS;
export type RubricItemFormat = FormatId<Formats['items']>;

export const RUBRIC_ITEM_READERS = {
  concord: (path: string) => concordRecords(rubricItemSchema, path),
  mrbench: (path: string) => validated(rubricItemSchema, mrbenchItems(path), 'record-and-item'),
  'mrbench-v1': (path: string) => validated(rubricItemSchema, mrbenchItems(path), 'record-and-item'),
  'aitutor-evalkit': (path: string) => validated(rubricItemSchema, evalkitItems(path), 'record-and-item'),
} satisfies Record<RubricItemFormat, (path: string) => Generator<RecordResult<RubricItem>>>;

export const RUBRIC_ANNOTATION_READERS = {
  concord: (path: string, catalog: RubricCatalog) => concordRecords(rubricAnnotationLineSchema(catalog), path),
  mrbench: (path: string, catalog: RubricCatalog) =>
    validated(rubricAnnotationLineSchema(catalog), mrbenchGoldAnnotations(path), 'record-and-item'),
  'mrbench-v1': (path: string, catalog: RubricCatalog) =>
    validated(rubricAnnotationLineSchema(catalog), mrbenchGoldAnnotations(path), 'record-and-item'),
} satisfies Record<
  FormatId<Formats['annotations']>,
  (path: string, catalog: RubricCatalog) => Generator<RecordResult<RubricAnnotationLine>>
>;

export const RUBRIC_JUDGE_READERS = {
  concord: (path: string, catalog: RubricCatalog) => concordRecords(rubricJudgeLineSchema(catalog), path),
  // `judgeName` picks the judge inside the file (default: the one the file is named after).
  'aitutor-evalkit': (path: string, catalog: RubricCatalog, judgeName?: string) =>
    validated(rubricJudgeLineSchema(catalog), evalkitJudgeLines(path, catalog, judgeName), 'record-and-item'),
} satisfies Record<
  FormatId<Formats['judge']>,
  (path: string, catalog: RubricCatalog, judgeName?: string) => Generator<RecordResult<RubricJudgeLine>>
>;

/** Rubric items from a Concord JSONL file, an MRBench V3 or V1 file, or an AITutor-EvalKit file. */
export function rubricItemRecords(path: string, format: RubricItemFormat): Generator<RecordResult<RubricItem>> {
  return readerFor(RUBRIC_ITEM_READERS, format, 'rubric item')(path);
}

/** Prior annotations from a Concord JSONL file, or MRBench's published labels (annotator `mrbench-gold`). */
export function rubricAnnotationRecords(
  path: string,
  format: FormatId<Formats['annotations']>,
  catalog: RubricCatalog,
): Generator<RecordResult<RubricAnnotationLine>> {
  return readerFor(RUBRIC_ANNOTATION_READERS, format, 'rubric annotation')(path, catalog);
}

/**
 * Judge lines from a Concord JSONL file or an AITutor-EvalKit predictions file. Unreadable verdicts are failures
 * marked `unreadableVerdict`.
 */
export function rubricJudgeRecords(
  path: string,
  format: FormatId<Formats['judge']>,
  catalog: RubricCatalog,
  judgeName?: string,
): Generator<RecordResult<RubricJudgeLine>> {
  return readerFor<(p: string, c: RubricCatalog, j?: string) => Generator<RecordResult<RubricJudgeLine>>>(
    RUBRIC_JUDGE_READERS,
    format,
    'rubric judge',
  )(path, catalog, judgeName);
}
