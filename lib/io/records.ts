import type * as z from 'zod';
import { flowItemSchema, type FlowItem } from '@/lib/validation/flow';
import {
  annotationLineSchema,
  judgeLineSchema,
  pairwiseItemSchema,
  type AnnotationLine,
  type JudgeLine,
  type PairwiseItem,
} from '@/lib/validation/pairwise';
import { zodIssuesToImportErrors, type ImportError } from '@/lib/validation/import-errors';
import { readJsonlSync, type JsonlOptions } from './jsonl';
import { failure, type RecordResult } from './record-result';
import { MathdialFormatError, mathdialRecordSchema, mathdialToFlow } from './adapters/mathdial';
import { bridgeItems, type BridgePairOptions } from './adapters/bridge';
import { pandalmAnnotations, pandalmJudgeLines, pandalmPairwiseItems } from './adapters/pandalm';

/*
 * The sources an import reads, all as one kind of stream: each record in file
 * order, either its value — which has passed the target zod schema — or every
 * problem found in it. Synchronous, so the importer can run inside a
 * better-sqlite3 transaction.
 *
 * JSONL sources number records by line. JSON-array sources (Bridge, PandaLM)
 * number them by 1-based position in the array, and their messages start with
 * "record N" so a report never suggests a line number. Line 0 is a problem
 * with the file as a whole.
 */

export type { RecordResult } from './record-result';

export const FLOW_FORMATS = ['concord', 'mathdial'] as const;
export const PAIRWISE_FORMATS = ['concord', 'bridge', 'pandalm'] as const;
export const ANNOTATION_FORMATS = ['concord', 'pandalm'] as const;
export const JUDGE_FORMATS = ['concord', 'pandalm'] as const;

function validate<T>(schema: z.ZodType<T>, line: number, value: unknown): RecordResult<T> {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? { line, ok: true, value: parsed.data } : { line, ok: false, errors: zodIssuesToImportErrors(line, parsed.error) };
}

function recordMessage(e: ImportError): ImportError {
  if (e.line === 0) return e;
  return { ...e, message: `record ${e.line}${e.path ? `, ${e.path}` : ''}: ${e.message}` };
}

/** Validates adapter output against `schema`; `numbering` says how messages refer to a record. */
function* validated<T>(
  schema: z.ZodType<T>,
  results: Iterable<RecordResult<unknown>>,
  numbering: 'line' | 'record',
): Generator<RecordResult<T>> {
  for (const r of results) {
    const checked = r.ok ? validate(schema, r.line, r.value) : r;
    if (checked.ok || numbering === 'line') yield checked;
    else yield { ...checked, errors: checked.errors.map(recordMessage) };
  }
}

/** JSONL lines as unvalidated values, read errors as failures. */
function* jsonlValues(path: string, opts?: JsonlOptions): Generator<RecordResult<unknown>> {
  for (const r of readJsonlSync(path, opts)) {
    yield r.ok ? r : { line: r.line, ok: false, errors: [r.error] };
  }
}

function* mathdialFlows(path: string, opts?: JsonlOptions): Generator<RecordResult<unknown>> {
  const seen = new Map<string, number>();
  for (const r of jsonlValues(path, opts)) {
    if (!r.ok) {
      yield r;
      continue;
    }
    const parsed = mathdialRecordSchema.safeParse(r.value, { reportInput: true });
    if (!parsed.success) {
      yield { line: r.line, ok: false, errors: zodIssuesToImportErrors(r.line, parsed.error) };
      continue;
    }
    const qid = String(parsed.data.qid);
    const occurrence = (seen.get(qid) ?? 0) + 1;
    seen.set(qid, occurrence);
    try {
      yield { line: r.line, ok: true, value: mathdialToFlow(parsed.data, occurrence) };
    } catch (e) {
      if (!(e instanceof MathdialFormatError)) throw e;
      yield failure(r.line, e.path, e.message);
    }
  }
}

/** Flow items from a Concord JSONL file or a MathDial JSONL file (see adapters/mathdial.ts). */
export function flowRecords(path: string, format: (typeof FLOW_FORMATS)[number], opts?: JsonlOptions): Generator<RecordResult<FlowItem>> {
  switch (format) {
    case 'concord':
      return validated(flowItemSchema, jsonlValues(path, opts), 'line');
    case 'mathdial':
      return validated(flowItemSchema, mathdialFlows(path, opts), 'line');
    default:
      throw new Error(`Unknown flow format "${format as string}"; use ${FLOW_FORMATS.join(' or ')}.`);
  }
}

/**
 * Pairwise items from a Concord JSONL file, a Bridge folder (the one holding
 * test.json and responses/; `bridge` picks the two replies) or PandaLM's
 * testset-v1.json.
 */
export function pairwiseRecords(
  path: string,
  format: (typeof PAIRWISE_FORMATS)[number],
  bridge?: BridgePairOptions,
): Generator<RecordResult<PairwiseItem>> {
  switch (format) {
    case 'concord':
      return validated(pairwiseItemSchema, jsonlValues(path), 'line');
    case 'bridge':
      return validated(pairwiseItemSchema, bridgeItems(path, bridge), 'record');
    case 'pandalm':
      return validated(pairwiseItemSchema, pandalmPairwiseItems(path), 'record');
    default:
      throw new Error(`Unknown pairwise format "${format as string}"; use ${PAIRWISE_FORMATS.join(', ')}.`);
  }
}

/** Prior human annotations from a Concord JSONL file, or the three annotators of PandaLM's testset-v1.json. */
export function annotationRecords(
  path: string,
  format: (typeof ANNOTATION_FORMATS)[number] = 'concord',
): Generator<RecordResult<AnnotationLine>> {
  switch (format) {
    case 'concord':
      return validated(annotationLineSchema, jsonlValues(path), 'line');
    case 'pandalm':
      return validated(annotationLineSchema, pandalmAnnotations(path), 'record');
    default:
      throw new Error(`Unknown annotation format "${format as string}"; use ${ANNOTATION_FORMATS.join(' or ')}.`);
  }
}

function* requireJudge(results: Iterable<RecordResult<JudgeLine>>, judgeName: string): Generator<RecordResult<JudgeLine>> {
  for (const r of results) {
    if (r.ok && r.value.judge !== judgeName) {
      yield failure(r.line, 'judge', `is "${r.value.judge}", but this file is being imported as the run "${judgeName}"`);
    } else yield r;
  }
}

/**
 * Judge outputs from a Concord JSONL file or a PandaLM judge file.
 * For PandaLM, `judgeName` names the run (default: from the file name, e.g.
 * `gpt-3.5-turbo`). For Concord files each line names its judge; when
 * `judgeName` is given, a line naming another judge is an error.
 * Unparseable PandaLM verdicts are failures whose message says
 * "unparseable verdict '<value>'".
 */
export function judgeRecords(path: string, format: (typeof JUDGE_FORMATS)[number], judgeName?: string): Generator<RecordResult<JudgeLine>> {
  switch (format) {
    case 'concord': {
      const lines = validated(judgeLineSchema, jsonlValues(path), 'line');
      return judgeName === undefined ? lines : requireJudge(lines, judgeName);
    }
    case 'pandalm':
      return validated(judgeLineSchema, pandalmJudgeLines(path, judgeName), 'record');
    default:
      throw new Error(`Unknown judge format "${format as string}"; use ${JUDGE_FORMATS.join(' or ')}.`);
  }
}
